"""The benchmark suite behind bin/bench: runs the cases asked for and prints the tables.

bin/bench installs what is missing and builds the release binaries, then runs this with
--bin pointing at them (with --smoke, at the debug build: every case at a tiny size, once,
so that bin/test finds a case that no longer works). Every case runs the built executables
as a user would, on inputs generated deterministically, against a "peer" measured in the
same invocation (or a computed bound), and the run prints one results table, a budget
table, and optionally an NDJSON copy of every row (--out).

    bench.py --bin DIR [--quick | --smoke] [--out FILE] [--case NAME[,NAME]]...
    bench.py --list [--case NAME[,NAME]]...    the cases (that would run), no build needed

The cases are in bench_cases.py, one function each (how to add one: at its top; the ingest
cases in bench_ingest, their peers in bench_ingest_peers); the machinery they share is in
bench_context (what a case is given), bench_runner (timing processes, peak RSS), bench_fake
(the offline Flickr), bench_results (rows, budgets, tables), bench_files and bench_records
(the generated photo records, of two shapes).
"""

import argparse
import datetime
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback

from bench_cases import CASES, summary
from bench_context import Context
from bench_fake import Fake
from bench_results import report, write_ndjson
from bench_runner import BenchError, Runner, log

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EX_USAGE = 64


def selected_cases(arguments):
    """The names given with --case (repeatable, comma-separated), in CASES' order; every case
    when none. Exits 64 on a name that is not a case."""
    if not arguments:
        return list(CASES)
    asked = {name.strip() for argument in arguments for name in argument.split(",") if name.strip()}
    unknown = sorted(asked - CASES.keys())
    if unknown or not asked:
        what = f"unknown case '{unknown[0]}'" if unknown else "--case needs a name"
        print(f"bin/bench: {what}; the cases: {', '.join(CASES)}", file=sys.stderr)
        sys.exit(EX_USAGE)
    return [name for name in CASES if name in asked]


def run_cases(ctx, names):
    """Runs each case; returns the failures ("name: why") of those that could not be measured.
    A case that fails, even by a fault of its own, does not take the run's other rows with it:
    a full run takes most of an hour."""
    failures = []
    for name in names:
        started = time.perf_counter()
        log(f"== {name}")
        try:
            CASES[name](ctx)
        except BenchError as error:
            failures.append(f"{name}: {error}")
            log(f"   FAILED: {error}")
        except Exception as error:  # a fault in the case itself: the other cases' rows still count
            failures.append(f"{name}: {type(error).__name__}: {error}")
            log(f"   FAILED, a fault in the case:\n{traceback.format_exc().rstrip()}")
        log(f"   ({time.perf_counter() - started:.0f} s)")
    return failures


def filesystem_type(path):
    return subprocess.run(["stat", "-f", "-c", "%T", path], capture_output=True, text=True).stdout.strip()


def git_commit(directory):
    result = subprocess.run(["git", "-C", directory, "describe", "--always", "--dirty"], capture_output=True, text=True)
    return result.stdout.strip() or None


def main():
    parser = argparse.ArgumentParser(prog="bin/bench", description="topregions benchmarks")
    parser.add_argument("--bin", help="the built tools' directory: release, or debug with --smoke (needed unless --list)")
    parser.add_argument("--quick", action="store_true", help="fewer sizes and runs (under three minutes)")
    parser.add_argument("--smoke", action="store_true",
                        help="every case at a tiny size, once, the --quick branches; proves the cases work, "
                             "measures nothing (its budgets are for shape only)")
    parser.add_argument("--out", metavar="FILE", help="also write every row as NDJSON here")
    parser.add_argument("--case", action="append", metavar="NAME[,NAME]",
                        help="run only these cases (repeatable); they run in the suite's order")
    parser.add_argument("--list", action="store_true", help="print the cases' names (those --case selects) and exit")
    parser.add_argument("--started", type=float, help="when bin/bench started (Unix seconds), to report setup too")
    options = parser.parse_args()
    names = selected_cases(options.case)
    if options.list:
        width = max(map(len, names))
        try:
            for name in names:
                print(f"{name.ljust(width)}  {summary(name)}", flush=True)
        except BrokenPipeError:  # bin/bench --list | head: the reader has what it wanted
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    if not options.bin:
        parser.error("--bin is needed to run the cases")
    if options.out and not os.access(os.path.dirname(os.path.abspath(options.out)), os.W_OK):
        parser.error(f"cannot write {options.out}")  # say so now, not after the whole run
    everything = names == list(CASES)

    work = tempfile.mkdtemp(prefix="topregions-bench.", dir=os.environ.get("TMPDIR", "/tmp"))

    def on_signal(number, _frame):
        raise KeyboardInterrupt(f"signal {number}")
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)

    started = time.perf_counter()
    try:
        filesystem = filesystem_type(work)
        header = {"table": "run", "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                  "commit": git_commit(REPOSITORY), "quick": options.quick, "smoke": options.smoke,
                  "host": socket.gethostname(),
                  "cpus": os.cpu_count(), "work_dir_filesystem": filesystem,
                  "load_average": os.getloadavg()[0], "cases": names}
        log(f"bin/bench{' --quick' if options.quick else ''}{' --smoke' if options.smoke else ''}"
            f"{'' if everything else ' --case ' + ','.join(names)}: "
            f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}, work dir {work} ({filesystem})")
        if filesystem in ("tmpfs", "ramfs") and "ingest" in names:
            log("   note: the databases are on tmpfs, where fsync costs nothing: ingest against sqlite-utils "
                "(which commits every 100 rows) will look worse than on a disk. Set TMPDIR to a disk to compare.")
        # A smoke run takes the --quick branches, at ctx.size()'s tiny sizes.
        ctx = Context(Runner(options.bin, work), options.quick or options.smoke, smoke=options.smoke)
        failures = run_cases(ctx, names)
        header["seconds"] = round(time.perf_counter() - started, 1)
        report(ctx.rows, ctx.budgets, failures, smoke=options.smoke)
        if options.out:
            write_ndjson(options.out, header, ctx.rows, ctx.budgets, failures)
        kind = ("smoke" if options.smoke else "quick" if options.quick else "full") + \
            ("" if everything else f" ({', '.join(names)})")
        total = f", {time.time() - options.started:.0f} s with setup and build" if options.started else ""
        print(f"\n{kind} run: {time.perf_counter() - started:.0f} s{total}; "
              f"load average now {os.getloadavg()[0]:.2f}")
        return 1 if failures else 0
    except KeyboardInterrupt:
        log("bin/bench: interrupted")
        return 130
    finally:
        Runner.stop_live()  # the command being measured, then the fakes
        Fake.stop_all()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
