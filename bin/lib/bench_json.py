"""Why the toolkit has its own JSON parser: the same 200k photo records (bench_records,
seed 2013, as bin/bench ingests) decoded in one run by the toolkit's parser, by libjansson
through a small C shim, and by Foundation, plus the guarantees each keeps (member order,
exact number text, line and column of an error).

The decoders live in a SwiftPM package of their own, Benchmarks/JSONDecode, so that only
this benchmark needs libjansson-dev.

    python3 -B bin/lib/bench_json.py [--quick | --smoke] [--out ROWS.ndjson]

From bin/bench.py: `bench_json.run(work_dir, quick=..., log=..., smoke=...)` returns the
rows (dicts, one per decoder and task, plus one per decoder's guarantees) and the table as
text.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

import bench_records

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PACKAGE = os.path.join(REPOSITORY, "Benchmarks", "JSONDecode")
SCRATCH = os.path.join(REPOSITORY, ".build-bench-json")
SEED = 2013


def _log(message):
    print(message, file=sys.stderr, flush=True)


def build(log=_log, configuration="release"):
    """Installs libjansson-dev if missing, builds the benchmark (release, or debug for a smoke
    run); returns its path."""
    subprocess.run(["bash", "-c", "source bin/lib/setup.sh && topregions_setup libjansson-dev"],
                   cwd=REPOSITORY, check=True, stdout=sys.stderr)
    log(f"== building Benchmarks/JSONDecode ({configuration})")
    # SwiftPM does not see a file added to a target of the root package it builds as a path
    # dependency (a stale scratch built GeoBox.swift without the FixedPoint.swift beside
    # it): a new scratch whenever the root package's source files are others.
    sources = sorted(os.path.relpath(os.path.join(folder, name), REPOSITORY)
                     for folder, _, names in os.walk(os.path.join(REPOSITORY, "Sources")) for name in names)
    stamp, listed = os.path.join(SCRATCH, "sources.txt"), "\n".join(sources) + "\n"
    if os.path.isdir(SCRATCH) and (not os.path.exists(stamp) or open(stamp).read() != listed):
        shutil.rmtree(SCRATCH)
    os.makedirs(SCRATCH, exist_ok=True)
    with open(stamp, "w") as out:
        out.write(listed)
    command = ["swift", "build", "-c", configuration, "--package-path", PACKAGE, "--scratch-path", SCRATCH]
    subprocess.run(command, check=True, stdout=sys.stderr)
    bin_dir = subprocess.run(command + ["--show-bin-path"], check=True, capture_output=True, text=True).stdout.strip()
    return os.path.join(bin_dir, "json-decode-bench")


def run(work_dir, quick=False, log=_log, smoke=False):
    """Measures every decoder on the same records; returns (rows, table). smoke (bin/bench
    --smoke): a debug build, 500 records, one round, to prove that it works."""
    binary = build(log, "debug" if smoke else "release")
    records = 500 if smoke else 50_000 if quick else 200_000
    rounds = 1 if smoke else 3 if quick else 5
    path = os.path.join(work_dir, f"records-json-{records}.ndjson")
    if not os.path.exists(path):
        bench_records.generate(path, records, seed=SEED)
    rows_path = os.path.join(work_dir, "json-rows.ndjson")
    log(f"== json: {records:,} records, {rounds} rounds per decoder")
    table = subprocess.run([binary, path, "--rounds", str(rounds), "--out", rows_path],
                           check=True, capture_output=True, text=True).stdout
    with open(rows_path) as f:
        rows = [json.loads(line) for line in f]
    return rows, table


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="50k records, 3 rounds")
    parser.add_argument("--smoke", action="store_true", help="a debug build, 500 records, 1 round")
    parser.add_argument("--out", help="also write every row as NDJSON to this file")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="topregions-bench-json.") as work:
        rows, table = run(work, quick=arguments.quick, smoke=arguments.smoke)
    print(table, end="")
    if arguments.out:
        with open(arguments.out, "w") as f:
            for row in rows:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
