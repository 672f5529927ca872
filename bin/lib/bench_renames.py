"""bin/bench's ingest-renames case: regions-load of records whose photographers' names go back
and forth, against the same records with each photographer's last name throughout (issue 35,
item 13). Registered in bench_cases.CASES."""

import json
import statistics

from bench_files import remove_database, sqlite_value
from bench_ingest import INGEST_RSS_AT_MOST, expect_summary
from bench_results import Row, Stat, count_label
from bench_runner import check, log

RENAMES_AT_MOST = 1.5  # × the time of the same records without renames


def case_ingest_renames(ctx):
    """regions-load of 200k records whose photographers' names change from line to line vs the same records with one name each; peak RSS"""
    for shape in ("bench", "many"):
        renames(ctx, shape, ctx.size(200_000))


def renamed_records(ctx, size, shape):
    """(renamed, control): each photographer's records alternate between their name and
    "NAME (new)" (every other record of theirs renamed, as when old and new pages of a
    renamed account meet); the control holds the same records with each photographer's
    last name throughout."""
    source = ctx.records(size, shape)
    suffix = f"{count_label(size)}{'' if shape == 'bench' else '-' + shape}"
    renamed_path, control_path = ctx.path(f"renamed-{suffix}.ndjson"), ctx.path(f"renamed-control-{suffix}.ndjson")
    seen, last, records = {}, {}, []
    with open(source, encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            owner = record["owner"]
            seen[owner] = seen.get(owner, 0) + 1
            if seen[owner] % 2 == 0:
                record["owner_name"] += " (new)"
            last[owner] = record["owner_name"]
            records.append(record)
    dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    with open(renamed_path, "w", encoding="utf-8") as renamed, open(control_path, "w", encoding="utf-8") as control:
        for record in records:
            renamed.write(dumps(record) + "\n")
            record["owner_name"] = last[record["owner"]]
            control.write(dumps(record) + "\n")
    return renamed_path, control_path, sum(1 for count in seen.values() if count > 1)


def renames(ctx, shape, size):
    name = f"{count_label(size)}{'' if shape == 'bench' else ', many photographers'}"
    renamed, control, renamed_photographers = renamed_records(ctx, size, shape)
    database = ctx.path("ingest-renames.db")
    times = {"renamed": [], "control": []}
    peak = {"renamed": [], "control": []}
    for run in range(ctx.runs):
        log(f"   ingest-renames {name}: run {run + 1}/{ctx.runs} (the two in turns)")
        for kind, records in (("control", control), ("renamed", renamed)):
            remove_database(database)
            load = ctx.run([ctx.tool("regions-load"), "--db", database, records], peak_memory=True)
            expect_summary(load.stderr, f"read {size}, new {size}, updated 0, already stored 0")
            times[kind].append(load.seconds)
            peak[kind].append(load.peak_rss_mb)
        # Every photographer ends with their last name, on every photo.
        stale = sqlite_value(database, "SELECT COUNT(*) FROM photo p JOIN photographer g ON g.id = p.photographer "
                                       "WHERE p.owner_name <> g.name")
        check(stale == 0, f"{stale} photos kept a photographer's earlier name")
    remove_database(database)
    ratio = statistics.median(times["renamed"]) / statistics.median(times["control"])
    ctx.add(Row(f"ingest-renames {name}: {renamed_photographers:,} photographers renamed back and forth", "regions-load",
                "s", Stat(times["renamed"]), "the same records, one name each", Stat(times["control"]),
                comparison="times"))
    ctx.budget(f"ingest-renames {name}: time vs without renames", f"≤ {RENAMES_AT_MOST}×", f"{ratio:.2f}×",
               ratio <= RENAMES_AT_MOST)
    ctx.budget(f"ingest-renames {name}: peak RSS", f"≤ {INGEST_RSS_AT_MOST} MB", f"{max(peak['renamed']):.0f} MB",
               max(peak["renamed"]) <= INGEST_RSS_AT_MOST)
