#!/usr/bin/env python3
"""The decision report as a person sees it: the HTML in headless Chromium, the PDF through poppler.

  render_report.py CLI DATA_DIR WORK_DIR chromium|pdf

chromium: the page's screenshot (WORK_DIR/report-chromium.png) is mostly text on white, and the
  chart's curves are drawn in their colours (the inline SVG rendered, nothing fetched: Chromium runs
  with every host unresolvable).
pdf: `report --pdf`, its pages rendered by pdftoppm (WORK_DIR/report-page-N.ppm): every page has
  text (the last at least a line), the chart's colours are on a page (the SVG drawn as vectors), and pdftotext finds every
  section heading of the HTML and the chosen ε in the PDF.
Exit 77 (skipped) when Chromium, pdftoppm/pdftotext or the CLI's PDF writer is absent.
"""

import glob
import os
import re
import shutil
import struct
import subprocess
import sys
import zlib

CLI, DATA, WORK, MODE = sys.argv[1:5]
SKIP = 77
os.makedirs(WORK, exist_ok=True)
HTML, PDF = os.path.join(WORK, "report.html"), os.path.join(WORK, "report.pdf")
BLUE, ORANGE = (0x00, 0x72, 0xB2), (0xD5, 0x5E, 0x00)  # the first two curves (core/report/report_chart.cpp)


def report(extra):
    args = [CLI, "report", "--data", os.path.join(DATA, "pair_train.csv"), "--test", os.path.join(DATA, "pair_test.csv"),
            "--label", "income", "--schema", os.path.join(DATA, "pair.schema"), "--bounds",
            os.path.join(DATA, "pair_bounds.csv"), "--mechanism", "objpert-gauss,outpert-gauss", "--grid", "0.1:10:6",
            "--eps", "1.5", "--target", "0.6", "--metric", "test-acc", "--repeats", "4", "--lambda", "0.1", "-o",
            HTML] + extra
    return subprocess.run(args, capture_output=True, text=True)


def near(pixel, colour, tolerance=40):
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour))


def png_pixels(path):
    """(width, height, rows of (r, g, b)) of an 8-bit RGB or RGBA PNG, non-interlaced."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, "unsupported PNG"
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    bpp = 3 if colour == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(width)])
        prev = line
    return width, height, rows


def ppm_pixels(path):
    data = open(path, "rb").read()
    header = re.match(rb"P6\s+(\d+)\s+(\d+)\s+255\s", data)
    width, height = int(header.group(1)), int(header.group(2))
    body = data[header.end():]
    return width, height, [[tuple(body[(y * width + x) * 3:(y * width + x) * 3 + 3]) for x in range(width)]
                           for y in range(height)]


def counts(rows):
    pixels = [p for row in rows for p in row]
    return (sum(1 for p in pixels if sum(p) < 300) / len(pixels), sum(1 for p in pixels if near(p, BLUE)),
            sum(1 for p in pixels if near(p, ORANGE)))


failures = []
if MODE == "chromium":
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        print("chromium is not installed (Debian: apt-get install chromium): skipped")
        sys.exit(SKIP)
    done = report([])
    if done.returncode != 0:
        sys.exit(f"report: exit {done.returncode}\n{done.stderr}")
    shot = os.path.join(WORK, "report-chromium.png")
    if os.path.exists(shot):
        os.remove(shot)
    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    "--host-resolver-rules=MAP * ~NOTFOUND", "--window-size=1000,2600", f"--screenshot={shot}",
                    "file://" + os.path.abspath(HTML)], capture_output=True, text=True, timeout=300)
    if not os.path.exists(shot):
        sys.exit("chromium wrote no screenshot")
    width, height, rows = png_pixels(shot)
    dark, blue, orange = counts(rows)
    if not 0.005 < dark < 0.4:
        failures.append(f"dark pixels {dark:.3f} of the screenshot: not a page of text on white")
    if blue < 100 or orange < 100:
        failures.append(f"chart colours in the screenshot: {blue} blue, {orange} orange pixels (the SVG not drawn?)")
elif MODE == "pdf":
    if not (shutil.which("pdftoppm") and shutil.which("pdftotext")):
        print("pdftoppm/pdftotext are not installed (Debian: apt-get install poppler-utils): skipped")
        sys.exit(SKIP)
    done = report(["--pdf", PDF])
    if done.returncode != 0 and "built without Qt Gui" in done.stderr:
        print("this CLI has no PDF writer: skipped")
        sys.exit(SKIP)
    if done.returncode != 0:
        sys.exit(f"report --pdf: exit {done.returncode}\n{done.stderr}")
    for old in glob.glob(os.path.join(WORK, "report-page-*.ppm")):
        os.remove(old)
    subprocess.run(["pdftoppm", "-r", "40", PDF, os.path.join(WORK, "report-page")], check=True)
    pages = sorted(glob.glob(os.path.join(WORK, "report-page-*.ppm")))
    if len(pages) < 3:
        failures.append(f"{len(pages)} pages")
    coloured = 0
    for k, page in enumerate(pages):
        dark, blue, orange = counts(ppm_pixels(page)[2])
        if dark < (0.002 if k + 1 < len(pages) else 1e-5):  # the last page may hold a few lines
            failures.append(f"{os.path.basename(page)}: blank ({dark:.4f} dark)")
        coloured += blue >= 20 and orange >= 20
    if coloured == 0:
        failures.append("no page shows the chart's colours")
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", PDF, "-"], capture_output=True, text=True, check=True).stdout
    html = open(HTML, encoding="utf-8").read()
    flat = " ".join(text.split())
    for heading in re.findall(r"<h[12]>(.*?)</h[12]>", html):
        heading = heading.replace("&amp;", "&").replace("&#39;", "'")
        if " ".join(heading.split()) not in flat:
            failures.append(f"the PDF lacks the heading {heading!r}")
    if "ε = 1.5" not in flat:
        failures.append("the PDF does not state the chosen ε = 1.5")
else:
    sys.exit(f"unknown mode {MODE}")
if failures:
    sys.exit("\n".join(failures))
print(f"{MODE}: every check passed")
