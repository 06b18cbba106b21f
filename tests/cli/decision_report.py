#!/usr/bin/env python3
"""epsilonlab-cli report: the decision report's HTML parsed and checked against independent sources.

  decision_report.py CLI DATA_DIR WORK_DIR

- every section is there, in order, with its heading;
- the dataset's SHA-256 of both files equals hashlib's of their bytes, the rows equal the utility
  command's report of the same options;
- the ledger's rows are the processing log of the training rows (step, detail, leaks) as the utility
  command reports it, and the rows marked as leaking are the guarantee's assumptions_not_met (a run
  whose schema is read from the rows, which leaks, and one with a public schema, which does not);
- the chosen ε is in the summary, the guarantee table, the ledger and the chart's marker; the chart
  has one curve per mechanism, a target line and the non-private level;
- the audit's verdict is the audit command's, and without --audit the report says why there is none;
- the reproduction block holds the command line and the options as JSON;
- nothing outside the file is referenced: no src/href but data: and #fragments, no <link>, no
  <script>, no @import, no url( but data:.
"""

import hashlib
import html.parser
import json
import os
import re
import subprocess
import sys

CLI, DATA, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(WORK, exist_ok=True)
TRAIN, TEST = os.path.join(DATA, "pair_train.csv"), os.path.join(DATA, "pair_test.csv")
DATA_OPTIONS = ["--data", TRAIN, "--test", TEST, "--label", "income", "--bounds", os.path.join(DATA, "pair_bounds.csv")]
SWEEP = ["--mechanism", "objpert-gauss,outpert-gauss", "--repeats", "4", "--seed", "5", "--metric", "test-acc",
         "--target", "0.6", "--lambda", "0.1"]
GRID = "0.1:10:5"
CHOSEN = 1.5
SECTIONS = ["summary", "dataset", "ledger", "mechanisms", "utility", "guarantee", "choice", "audit", "reproduce"]
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def run(args, allowed=(0,)):
    done = subprocess.run([CLI] + args, capture_output=True, text=True)
    if done.returncode not in allowed:
        sys.exit(f"{' '.join(args)}: exit {done.returncode}\n{done.stderr}")
    return done.stdout


class Page(html.parser.HTMLParser):
    """The tags (with attributes and the section they are in) and the text of every element."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags = []  # (tag, attrs dict, section id)
        self.sections = []
        self.section = None
        self.stack = []  # open elements: [tag, attrs, text parts]
        self.closed = []  # (tag, attrs, text, section)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "section":
            self.section = attrs.get("id")
            self.sections.append(self.section)
        self.tags.append((tag, attrs, self.section))
        self.stack.append([tag, attrs, []])

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, dict(attrs), self.section))
        self.closed.append((tag, dict(attrs), "", self.section))

    def handle_endtag(self, tag):
        while self.stack:
            open_tag, attrs, parts = self.stack.pop()
            text = "".join(parts)
            self.closed.append((open_tag, attrs, text, self.section))
            if self.stack:
                self.stack[-1][2].append(text)
            if open_tag == tag:
                break
        if tag == "section":
            self.section = None

    def handle_data(self, data):
        if self.stack:
            self.stack[-1][2].append(data)

    def elements(self, tag, cls=None, section=None):
        return [(a, t) for (g, a, t, s) in self.closed if g == tag and (cls is None or cls in a.get("class", "").split())
                and (section is None or s == section)]


def parse(text):
    page = Page()
    page.feed(text)
    page.close()
    return page


def rows(page, table_class):
    """The cells of each row of the table of that class, as lists of texts (header rows left out)."""
    out = []
    # Rows are read from the closed elements: each <tr>'s cells in order.
    cells = [(g, a, t) for (g, a, t, s) in page.closed if g in ("td", "th", "tr", "table")]
    table_rows, row, in_table = [], [], False
    for g, a, t in cells:
        if g in ("td", "th"):
            row.append((g, t))
        elif g == "tr":
            table_rows.append((a, row))
            row = []
        elif g == "table":
            if table_class in a.get("class", "").split():
                out.extend(table_rows)
            table_rows = []
    return [(a, [t for g, t in r]) for a, r in out if not all(g == "th" for g, _ in r)]


def external_references(text, page):
    problems = []
    for tag, attrs, _ in page.tags:
        for name in ("src", "href", "xlink:href", "action", "poster", "data"):
            value = attrs.get(name)
            if value is not None and not (value.startswith("data:") or value.startswith("#")):
                problems.append(f"<{tag} {name}={value!r}>")
        if tag in ("link", "script", "iframe", "object", "embed", "img", "base"):
            problems.append(f"<{tag}> element")
    for pattern in (r"@import", r"url\((?!\s*['\"]?data:)", r"\b(src|href)\s*=\s*['\"]?(https?:|file:|//)"):
        for m in re.finditer(pattern, text, re.IGNORECASE):
            problems.append(f"{m.group(0)!r} at {m.start()}")
    return problems


def report(extra, name):
    out = os.path.join(WORK, name)
    run(["report"] + DATA_OPTIONS + SWEEP + ["--grid", GRID, "--eps", str(CHOSEN), "-o", out] + extra)
    with open(out, encoding="utf-8") as f:
        return f.read()


# The audit on the same data and mechanism at the chosen ε (exit 3 would be a violated claim).
audit_file = os.path.join(WORK, "audit.json")
run(["audit"] + DATA_OPTIONS + ["--schema", os.path.join(DATA, "pair.schema"), "--mechanism", "objpert-gauss", "--eps", str(CHOSEN), "--runs", "40", "--seed", "2",
                                "--lambda", "0.1", "--out", audit_file], allowed=(0, 3))
audit = json.load(open(audit_file))["audit"]

for schema, leaky in ((os.path.join(DATA, "pair.schema"), False), ("none", True)):
    label = f"--schema {os.path.basename(schema)}"
    options = ["--schema", schema]
    text = report(options + (["--audit", audit_file] if not leaky else []), f"report-{'leaky' if leaky else 'public'}.html")
    page = parse(text)
    utility = json.loads(run(["utility"] + DATA_OPTIONS + SWEEP + ["--eps", GRID] + options))

    check(page.sections == SECTIONS, f"{label}: sections {page.sections}, expected {SECTIONS}")
    for section in SECTIONS:
        headings = page.elements("h1" if section == "summary" else "h2", section=section)
        check(len(headings) == 1 and headings[0][1].strip(), f"{label}: section {section} has no heading")
    check(not external_references(text, page), f"{label}: external references {external_references(text, page)}")

    fields = {r[0]: r[1] for a, r in rows(page, "fields") if len(r) == 2}
    for key, path in (("Training file SHA-256", TRAIN), ("Test file SHA-256", TEST)):
        expected = hashlib.sha256(open(path, "rb").read()).hexdigest()
        check(fields.get(key) == expected, f"{label}: {key} {fields.get(key)!r}, hashlib says {expected}")
    train = utility["data"]["train"]
    check(fields.get("Training rows") == str(train["rows"]), f"{label}: training rows {fields.get('Training rows')}")
    check(fields.get("Test rows", "").startswith(str(utility["data"]["test"]["rows"])), f"{label}: test rows")
    check("pair.schema" in fields.get("Public schema (where from)", "") or leaky, f"{label}: schema source")
    check("pair_bounds.csv" in fields.get("Bounds (where from)", ""), f"{label}: bounds source")

    ledger = [(a, r) for a, r in rows(page, "ledger") if "ledger-step" in a.get("class", "")]
    log = train["processing"]
    check([(r[1], r[2], r[4]) for a, r in ledger] == [(s["step"], s["detail"], "yes" if s["leaks_privacy"] else "no")
                                                     for s in log],
          f"{label}: ledger rows {[(r[1], r[4]) for a, r in ledger]} are not the processing log {[s['step'] for s in log]}")
    leaking = sorted({f"{r[1]}: {r[2]}" for a, r in ledger if a.get("data-leaks") == "true"})
    guarantee = utility["mechanisms"][0]["mechanism"]["guarantee"]
    check(leaking == sorted(guarantee["assumptions_not_met"]),
          f"{label}: leaking rows {leaking} != the guarantee's assumptions_not_met {guarantee['assumptions_not_met']}")
    check(bool(leaking) == leaky, f"{label}: leaking rows {leaking}")

    chosen = page.elements("p", "chosen", "summary")
    check(len(chosen) == 1 and float(chosen[0][0].get("data-chosen-eps", "nan")) == CHOSEN, f"{label}: chosen ε attribute")
    check(chosen and "ε = 1.5" in chosen[0][1], f"{label}: chosen ε text {chosen[0][1] if chosen else None!r}")
    first = [r for a, r in rows(page, "guarantees") if "chosen-guarantee" in a.get("class", "")]
    check(first and first[0][0] == "objpert-gauss" and first[0][2] == ("∞ (none)" if leaky else "1.5"),
          f"{label}: guarantee row {first}")
    mech_row = [r for a, r in rows(page, "ledger") if "ledger-mechanism" in a.get("class", "")]
    check(mech_row and mech_row[0][3] == "1.5", f"{label}: ledger's mechanism row {mech_row}")
    names = [r[0] for a, r in rows(page, "mechanisms")]
    check(names == ["objpert-gauss", "outpert-gauss"], f"{label}: mechanisms {names}")
    svg = [(t, a) for t, a, s in page.tags if s == "utility"]
    curves = [a for t, a in svg if t == "polyline" and "curve" in a.get("class", "")]
    check(len(curves) == 2, f"{label}: {len(curves)} curves in the chart")
    check(any(t == "line" and a.get("class") == "target" for t, a in svg), f"{label}: no target line")
    check(any(t == "line" and a.get("class") == "reference" for t, a in svg), f"{label}: no non-private level")
    check(any(t == "line" and a.get("class") == "chosen-eps" for t, a in svg), f"{label}: no chosen-ε marker")
    check(any("chosen ε = 1.5" in t for a, t in page.elements("text", section="utility")), f"{label}: marker label")
    ranking = [r[1] for a, r in rows(page, "ranking")]
    check(sorted(ranking) == names, f"{label}: ranking {ranking}")

    if leaky:
        none = page.elements("p", "audit-none", "audit")
        check(none and "--audit" in none[0][1], f"{label}: the missing audit is not explained")
    else:
        lines = [r for a, r in rows(page, "audit")]
        check(len(lines) == 1 and lines[0][0] == "objpert-gauss" and lines[0][5].endswith(audit["verdict"]),
              f"{label}: audit lines {lines}, the audit's verdict {audit['verdict']!r}")

    command = page.elements("pre", "command", "reproduce")
    check(command and "report" in command[0][1] and "--eps 1.5" in command[0][1], f"{label}: command line")
    settings = page.elements("pre", "settings", "reproduce")
    options_json = json.loads(settings[0][1]) if settings else {}
    check(options_json.get("--eps") == "1.5" and options_json.get("--grid") == GRID, f"{label}: options {options_json}")

if failures:
    sys.exit("\n".join(failures))
print("decision report: every check passed")
