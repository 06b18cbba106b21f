#!/usr/bin/python3
"""Checks of epsilonlab-cli's scale-out (issue 15; docs/scale-out.md), run by CTest.

  resume  CLI WORKDIR SEED KILLS -- ARGS   a run with --checkpoint killed (SIGKILL) KILLS times at
                                          random points (random.Random(SEED)), then resumed to the
                                          end, writes the same report as an uninterrupted run
  mpi-resume MPIRUN CLI WORKDIR SEED KILLS -- ARGS   the same with the killed runs under mpirun -np
                                          2 (the whole job killed) and the resumes under -np 3
  refuse  CLI WORKDIR -- ARGS -- OTHER    a checkpoint of ARGS is refused by a run of OTHER (exit
                                          status 2, the differing options named)
  mpi     MPIRUN CLI WORKDIR NP -- ARGS   mpirun -np NP gives the report of one process
  shards  CLI WORKDIR N -- ARGS           N --shard runs joined by merge give the report of one run
  fail    MPIRUN CLI NP CELL REGEX -- ARGS with EPSILONLAB_FAIL_CELL=CELL (a cell that throws), mpirun
                                          -np NP stops the job with a failure status and a message
                                          matching REGEX (the rank and the cell)

Reports are compared byte for byte after one normalisation: wall-clock fields ("seconds…": x)
read 0, since no two runs, even uninterrupted ones, take the same time.
"""
import os
import random
import re
import signal
import subprocess
import sys
import time

SECONDS = re.compile(rb'("seconds[a-z_]*": )-?[0-9.eE+-]+')


def normalised(path):
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 100:
        sys.exit(f"suspiciously short report {path}: {data!r}")
    return SECONDS.sub(rb"\g<1>0", data)


def same(reference, other, what):
    a, b = normalised(reference), normalised(other)
    if a != b:
        line = next((i for i, (x, y) in enumerate(zip(a.split(b"\n"), b.split(b"\n"))) if x != y), None)
        sys.exit(f"{what}: {other} differs from {reference} (first at line {line})")
    print(f"{what}: identical to the single uninterrupted run ({len(a)} bytes)")


def run(args, **kw):
    done = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    if done.returncode != 0:
        sys.exit(f"{' '.join(args)} failed ({done.returncode}):\n{done.stderr.decode()}")
    return done


def split_args(argv):
    parts, current = [], []
    for a in argv:
        if a == "--" and len(parts) < 2:
            parts.append(current)
            current = []
        else:
            current.append(a)
    parts.append(current)
    return parts


def fresh(workdir):
    os.makedirs(workdir, exist_ok=True)
    for name in os.listdir(workdir):
        os.remove(os.path.join(workdir, name))


def cell_lines(path):
    """Distinct cells in a checkpoint and its ranks' parts (FILE.rank<k>), complete lines only (the
    header's first line says how many setting lines follow it; a cell line ends in its checksum)."""
    cells = set()
    folder, name = os.path.split(path)
    for part in os.listdir(folder or "."):
        if part != name and not part.startswith(name + ".rank"):
            continue
        try:
            with open(os.path.join(folder, part), "rb") as f:
                lines = f.read().split(b"\n")
        except FileNotFoundError:
            continue
        header = 1 + int(lines[0].split()[-1]) if lines and lines[0] else 0
        for line in lines[header:-1]: # the last piece has no newline: cut short or empty
            cells.add(tuple(line.split(b" ", 2)[:2]))
    return len(cells)


MPI_ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")


def resume(cli, workdir, seed, kills, args, killed_launch=(), resume_launch=()):
    fresh(workdir)
    env = MPI_ENV if killed_launch else None
    reference = os.path.join(workdir, "uninterrupted.out")
    run([cli, *args, "--out", reference])
    full = os.path.join(workdir, "full.checkpoint")
    run([cli, *args, "--checkpoint", full, "--out", os.path.join(workdir, "full.out")])
    total = cell_lines(full)
    os.remove(full)
    rng = random.Random(int(seed))
    checkpoint = os.path.join(workdir, "run.checkpoint")
    resumed = os.path.join(workdir, "resumed.out")
    interrupted = 0
    for attempt in range(int(kills)):
        # Kill once the checkpoint holds a random number of further cells, a random moment later
        # (mid-cell or mid-write), whatever the machine's speed.
        done = cell_lines(checkpoint)
        target = done + rng.randint(1, max(1, (total - done) // (int(kills) - attempt + 1)))
        pause = rng.uniform(0.0, 0.004)
        p = subprocess.Popen([*killed_launch, cli, *args, "--checkpoint", checkpoint, "--out", resumed],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, start_new_session=True)
        while p.poll() is None and cell_lines(checkpoint) < target:
            time.sleep(0.0005)
        time.sleep(pause)
        try:
            os.killpg(p.pid, signal.SIGKILL) # the whole job: mpirun and its ranks
        except ProcessLookupError:
            pass # the job had already ended (counted below as not interrupted)
        p.wait()
        cells = cell_lines(checkpoint)
        if p.returncode == -signal.SIGKILL and cells < total:
            interrupted += 1
        print(f"kill {attempt + 1} at ≥ {target} cells + {pause * 1000:.1f} ms: exit {p.returncode}, "
              f"{cells} of {total} cells in the checkpoint")
        if os.path.exists(resumed):
            os.remove(resumed) # a run that finished before its kill: not what is tested
    if interrupted < int(kills) // 2:
        sys.exit(f"only {interrupted} of {kills} runs were killed mid-sweep: the sweep is too short for this check")
    done = run([*resume_launch, cli, *args, "--checkpoint", checkpoint, "--out", resumed], env=env)
    print(done.stderr.decode().strip().splitlines()[-1])
    same(reference, resumed, f"resumed after {interrupted} kills mid-sweep")


def refuse(cli, workdir, args, other):
    fresh(workdir)
    checkpoint = os.path.join(workdir, "run.checkpoint")
    run([cli, *args, "--checkpoint", checkpoint, "--out", os.path.join(workdir, "first.out")])
    before = open(checkpoint, "rb").read()
    done = subprocess.run([cli, *other, "--checkpoint", checkpoint], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    message = done.stderr.decode()
    if done.returncode != 2:
        sys.exit(f"expected exit status 2, got {done.returncode}:\n{message}")
    differing = [a for a in other if a.startswith("--") and a not in args or
                 a.startswith("--") and other[other.index(a) + 1:other.index(a) + 2] != args[args.index(a) + 1:args.index(a) + 2]]
    for name in differing:
        if f"{name}:" not in message:
            sys.exit(f"the message does not name {name}:\n{message}")
    if open(checkpoint, "rb").read() != before:
        sys.exit("the refused run changed the checkpoint")
    print(f"refused, naming {', '.join(differing)}:\n{message}")


def mpi(mpirun, cli, workdir, np, args):
    fresh(workdir)
    # One thread in each process on both sides: the check is of the split over ranks. (Thread-count
    # independence has its own tests; DP-SGD audits do not have it yet, see docs/scale-out.md.)
    single = os.path.join(workdir, "single.out")
    run([cli, *args, "--threads", "1", "--out", single])
    ranks = os.path.join(workdir, f"np{np}.out")
    run([mpirun, "--oversubscribe", "-np", np, cli, *args, "--threads", "1", "--out", ranks], env=MPI_ENV)
    same(single, ranks, f"mpirun -np {np}")


def shards(cli, workdir, n, args):
    fresh(workdir)
    single = os.path.join(workdir, "single.out")
    run([cli, *args, "--out", single])
    parts = []
    for i in range(int(n)):
        parts.append(os.path.join(workdir, f"shard{i}.checkpoint"))
        run([cli, *args, "--shard", f"{i}/{n}", "--checkpoint", parts[-1]])
    merged = os.path.join(workdir, "merged.out")
    run([cli, "merge", *parts, "--out", merged])
    same(single, merged, f"{n} shards merged")


def fail(mpirun, cli, np, cell, regex, args):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               EPSILONLAB_FAIL_CELL=cell)
    start = time.monotonic()
    done = subprocess.run([mpirun, "--oversubscribe", "-np", np, cli, *args, "--threads", "1"], env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    message = done.stderr.decode()
    if done.returncode == 0:
        sys.exit(f"the job succeeded although cell {cell} failed:\n{message}")
    if not re.search(regex, message):
        sys.exit(f"no line matches {regex!r}:\n{message}")
    if done.stdout.strip():
        sys.exit(f"a report was written although the job failed:\n{done.stdout.decode()[:500]}")
    print(f"stopped with status {done.returncode} after {time.monotonic() - start:.1f} s: "
          f"{re.search(regex, message).group(0)}")


def main(argv):
    mode = argv[0]
    if mode == "resume":
        (cli, workdir, seed, kills), args, _ = split_args(argv[1:]) + [[]]
        resume(cli, workdir, seed, kills, args)
    elif mode == "mpi-resume":
        (mpirun, cli, workdir, seed, kills), args = split_args(argv[1:])[:2]
        resume(cli, workdir, seed, kills, [*args, "--threads", "1"],
               killed_launch=[mpirun, "--oversubscribe", "-np", "2"], resume_launch=[mpirun, "--oversubscribe", "-np", "3"])
    elif mode == "refuse":
        (cli, workdir), args, other = split_args(argv[1:])
        refuse(cli, workdir, args, other)
    elif mode == "mpi":
        (mpirun, cli, workdir, np), args = split_args(argv[1:])[:2]
        mpi(mpirun, cli, workdir, np, args)
    elif mode == "shards":
        (cli, workdir, n), args = split_args(argv[1:])[:2]
        shards(cli, workdir, n, args)
    elif mode == "fail":
        (mpirun, cli, np, cell, regex), args = split_args(argv[1:])[:2]
        fail(mpirun, cli, np, cell, regex, args)
    else:
        sys.exit(f"unknown mode {mode}")


if __name__ == "__main__":
    main(sys.argv[1:])
