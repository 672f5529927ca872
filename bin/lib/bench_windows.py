"""bin/bench's windows case (issue 37, item 6): the top regions and the rising regions in a
time window, against DuckDB (the engine built for this query: ClickBench's "top regions by
distinct users") with the photos copied into its own table, and against SQL by hand over our
tables. Registered in bench_cases.CASES."""

import csv
import json
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import time

import bench_records
from bench_files import remove_database, sqlite_value
from bench_ingest import expect_summary
from bench_results import Row, Stat, count_label
from bench_runner import check, log

DAYS = 30
WINDOWS = [("1h", 3600), ("24h", 86_400), ("7d", 7 * 86_400), ("all", None)]
WINDOW_SPEEDUP_OVER_HAND = 10  # × faster than sqlite3 by hand, every window

# Ours: the store's answer as regions-top gives it (Queries.topRegions(limit:window:) and
# risingRegions), timed inside a warm regions-top by TOPREGIONS_BENCH_ANSWERS (each answer's
# milliseconds on stderr), apart from starting the program.
BENCH_ANSWER = re.compile(r"bench: answered in ([0-9.]+) ms")
# By hand: what a person writes over our tables (issue 37, item 5), SQLite choosing the plan.
HAND_WINDOW = """SELECT region, COUNT(DISTINCT photographer) AS n, COUNT(*) FROM photo
WHERE region IS NOT NULL AND uploaded > ? AND uploaded <= ? GROUP BY region ORDER BY n DESC, region LIMIT 50"""
DUCK_WINDOW = """SELECT region, COUNT(DISTINCT photographer) AS n, COUNT(*) FROM photos
WHERE uploaded > ? AND uploaded <= ? GROUP BY region ORDER BY n DESC, region LIMIT 50"""
DUCK_RISING = """SELECT region,
  COUNT(DISTINCT photographer) FILTER (WHERE uploaded > $2) AS now,
  COUNT(DISTINCT photographer) FILTER (WHERE uploaded <= $2) AS before
FROM photos WHERE uploaded > $1 AND uploaded <= $3 GROUP BY region"""


def case_windows(ctx):
    """the top 50 in 1h/24h/7d/all and the rising list for 24h, 1M photos over 30 days, vs DuckDB and SQL by hand; whole commands vs the duckdb CLI"""
    import duckdb  # installed by bin/lib/setup.sh (topregions_ensure_duckdb)

    size = ctx.size(1_000_000)
    label = count_label(size)
    records = ctx.path(f"windows-records-{label}.ndjson")
    started = time.perf_counter()
    made = bench_records.generate(records, size, shape="many", span=DAYS * 86_400)
    log(f"   generated {size:,} records over {DAYS} days, many shape ({made['photographers']:,} photographers), "
        f"in {time.perf_counter() - started:.1f} s")
    database = ctx.path("windows.db")
    remove_database(database)
    load = ctx.run([ctx.tool("regions-load"), "--db", database, records])
    expect_summary(load.stderr, f"read {size}, new {size}, updated 0, already stored 0")
    os.remove(records)
    end = int(sqlite_value(database, "SELECT MAX(uploaded) FROM photo"))

    # DuckDB's own table of the same rows (those with a region), in process and in a file
    # for its CLI.
    rows_csv = ctx.path("windows-photos.csv")
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as source, open(rows_csv, "w", newline="") as out:
        csv.writer(out).writerows(source.execute("SELECT uploaded, region, photographer FROM photo WHERE region IS NOT NULL"))
    table = ("CREATE TABLE photos AS SELECT * FROM read_csv('{}', header=false, "
             "columns={{'uploaded': 'BIGINT', 'region': 'BIGINT', 'photographer': 'BIGINT'}})").format(rows_csv)
    duck = duckdb.connect()
    duck.execute(table)
    # The CLI's own file, written by the CLI (its storage version may differ from the module's).
    duck_file = ctx.path("windows.duckdb")
    if os.path.exists(duck_file):
        os.remove(duck_file)
    duckdb_cli = shutil.which("duckdb") or os.path.expanduser("~/.local/bin/duckdb")
    ctx.run([duckdb_cli, duck_file, "-c", table])
    os.remove(rows_csv)
    ours_db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)

    def timed(run, times):
        samples = []
        for _ in range(times):
            started = time.perf_counter()
            run()
            samples.append((time.perf_counter() - started) * 1e3)
        return Stat(samples)

    runs = ctx.repeat(ctx.runs * 2)
    warmup = ctx.warmup(2)

    def ours(arguments):
        """regions-top's answer, timed in its process: (its NDJSON rows, a Stat of ms)."""
        output = ctx.path("windows-ours.ndjson")
        argv = [ctx.tool("regions-top"), "--db", database, "--limit", "50", "--format", "ndjson", "--no-refresh"] + arguments
        done = ctx.run(argv, stdout=output, env={"TOPREGIONS_NOW": str(end), "TOPREGIONS_BENCH_ANSWERS": str(warmup + runs)})
        samples = [float(ms) for ms in BENCH_ANSWER.findall(done.stderr)]
        check(len(samples) == warmup + runs, f"regions-top {' '.join(arguments)}: {len(samples)} timed answers, not {warmup + runs}")
        with open(output) as lines:
            rows = [json.loads(line) for line in lines]
        os.remove(output)
        return rows, Stat(samples[warmup:])

    try:
        for name, length in WINDOWS:
            start = end - length if length else -1
            arguments = (start, end)
            rows, mine_ms = ours(["--window", name])
            # The same counts from each (ties may order differently).
            mine = sorted(row["photographers"] for row in rows)
            theirs = sorted(row[1] for row in duck.execute(DUCK_WINDOW, list(arguments)).fetchall())
            hand = sorted(row[1] for row in ours_db.execute(HAND_WINDOW, arguments).fetchall())
            check(mine == theirs == hand, f"window {name}: the three answers' counts differ")
            for _ in range(warmup):
                duck.execute(DUCK_WINDOW, list(arguments)).fetchall()
            duck_ms = timed(lambda: duck.execute(DUCK_WINDOW, list(arguments)).fetchall(), runs)
            hand_ms = timed(lambda: ours_db.execute(HAND_WINDOW, arguments).fetchall(), ctx.repeat(3))
            ctx.add(Row(f"windows top 50, {name}", f"{label} photos over {DAYS} days, in process", "ms", mine_ms,
                        "DuckDB (its own table, Python API, warm)", duck_ms))
            ctx.add(Row(f"windows top 50, {name}, by hand", "ours", "ms", mine_ms, "sqlite3 by hand over our tables", hand_ms))
            ctx.budget(f"windows top 50 {name}: vs DuckDB", "faster", f"{duck_ms.median / mine_ms.median:.2f}×",
                       mine_ms.median < duck_ms.median)
            speedup = hand_ms.median / mine_ms.median
            ctx.budget(f"windows top 50 {name}: vs SQL by hand", f"≥ {WINDOW_SPEEDUP_OVER_HAND}× faster", f"{speedup:,.1f}×",
                       speedup >= WINDOW_SPEEDUP_OVER_HAND)

        # Rising, 24h: this window's and the one before's counts, the rule applied.
        day = 86_400
        rising_duck = lambda: duck.execute(DUCK_RISING, [end - 2 * day, end - day, end]).fetchall()
        rows, mine_ms = ours(["--rising", "--window", "24h", "--limit", "100000"])
        counts_duck = {row[0]: (row[1], row[2]) for row in rising_duck()}
        by_place = dict(ours_db.execute("SELECT place_id, id FROM region").fetchall())
        mismatched = [row for row in rows
                      if counts_duck.get(by_place[row["region_id"]]) != (row["photographers"], row["photographers_before"])]
        check(rows and not mismatched, f"rising 24h: counts differ from DuckDB's ({len(rows)} rows, {mismatched[:2]})")
        for _ in range(warmup):
            rising_duck()
        duck_ms = timed(rising_duck, runs)
        ctx.add(Row("windows rising, 24h", "both windows' counts and the rule, in process", "ms", mine_ms, "DuckDB, one query", duck_ms))
        ctx.budget("windows rising 24h: vs DuckDB", "faster", f"{duck_ms.median / mine_ms.median:.2f}×", mine_ms.median < duck_ms.median)
    finally:
        ours_db.close()
        duck.close()

    # Whole commands: what a person waits for at the prompt.
    top = [ctx.tool("regions-top"), "--db", database, "--window", "24h", "--limit", "50", "--format", "ndjson"]
    start = end - 86_400
    cli = [duckdb_cli, "-readonly", duck_file, "-c", DUCK_WINDOW.replace("?", "{}").format(start, end)]
    env = {"TOPREGIONS_NOW": str(end)}
    ours_process, duck_process = ctx.alternate(
        lambda: ctx.run(top, env=env).seconds * 1e3, lambda: ctx.run(cli).seconds * 1e3, runs=ctx.repeat(ctx.runs * 2), warmup=1)
    ctx.add(Row("windows top 50, 24h, process", "regions-top --window 24h", "ms", ours_process, "duckdb CLI, its own file",
                duck_process))
    os.remove(duck_file)
