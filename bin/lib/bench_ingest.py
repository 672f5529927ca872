"""bin/bench's ingest case: regions-load into a new database and again, against sqlite-utils
and SQL by hand (registered in bench_cases.CASES)."""

import statistics
import sys

from bench_files import remove_database
from bench_results import Row, Stat, count_label
from bench_runner import check, log


def expect_summary(stderr, expected):
    """regions-load's summary line says what the run did; a benchmark of the wrong work is void."""
    check(expected in stderr, f"regions-load said {stderr.strip()!r}, expected {expected!r}")


# ----------------------------------------------------------------------------------------
# ingest: regions-load into a new database and again (all duplicates), against sqlite-utils

INGEST_AT_LEAST = 5  # × sqlite-utils' records/s into a new database
INGEST_RSS_AT_MOST = 64  # MB, regions-load's peak RSS loading a new database

# The second peer: SQLite itself, by hand. The sqlite3 CLI imports the NDJSON lines into a
# one-column table, then one INSERT ... SELECT json_extract(...) fills a photo table with the
# columns and indexes of ours (the unique id, the b-tree indexes and the FTS5 index over
# title, description and the two names), in one transaction, in WAL mode as ours runs. What
# it leaves out is what regions-load adds: photographers and regions as rows of their own,
# the maintained counts, validation, repeats, and the staging of a batch at a time.
JSON_EXTRACT_PEER_SQL = """\
PRAGMA journal_mode = WAL;
CREATE TABLE line (j TEXT);
CREATE TABLE photo (
    id TEXT NOT NULL UNIQUE, owner TEXT NOT NULL, title TEXT NOT NULL, description TEXT NOT NULL,
    latitude REAL, longitude REAL, place_id TEXT, region TEXT, uploaded INTEGER,
    thumb_url TEXT, photo_url TEXT, extra TEXT, added_at INTEGER NOT NULL, viewed_at INTEGER,
    view_seq INTEGER, owner_name TEXT NOT NULL DEFAULT '', region_name TEXT);
CREATE INDEX photo_in_region ON photo (region, uploaded DESC, id) WHERE region IS NOT NULL;
CREATE INDEX photo_awaiting_place ON photo (place_id) WHERE region IS NULL AND place_id IS NOT NULL;
CREATE INDEX photo_by_view_order ON photo (view_seq DESC) WHERE view_seq IS NOT NULL;
CREATE INDEX photo_by_upload ON photo (uploaded DESC, id);
CREATE VIRTUAL TABLE photo_fts USING fts5(title, description, owner_name, region_name,
    content=[photo], tokenize='unicode61 remove_diacritics 2');
BEGIN;
.mode ascii
.separator "\\037" "\\n"
.import {records} line
INSERT INTO photo (id, owner, owner_name, title, description, latitude, longitude, place_id,
                   uploaded, thumb_url, photo_url, region, region_name, added_at)
    SELECT json_extract(j, '$.id'), json_extract(j, '$.owner'), json_extract(j, '$.owner_name'),
           json_extract(j, '$.title'), json_extract(j, '$.description'), json_extract(j, '$.latitude'),
           json_extract(j, '$.longitude'), json_extract(j, '$.place_id'), json_extract(j, '$.uploaded'),
           json_extract(j, '$.thumb_url'), json_extract(j, '$.photo_url'), json_extract(j, '$.region_id'),
           json_extract(j, '$.region'), unixepoch()
    FROM line;
INSERT INTO photo_fts (rowid, title, description, owner_name, region_name)
    SELECT rowid, title, description, owner_name, region_name FROM photo;
DELETE FROM line;
COMMIT;
SELECT COUNT(*) FROM photo;
"""


def json_extract_peer(ctx, records, database):
    """The sqlite3 CLI's command and script for the json_extract peer (its stdin)."""
    script = ctx.path("ingest-json-extract.sql")
    with open(script, "w", encoding="utf-8") as out:
        out.write(JSON_EXTRACT_PEER_SQL.format(records=records))
    return ["sqlite3", "-batch", database], script


def case_ingest(ctx):
    """regions-load at 200k (and 1M) records, new and again, vs sqlite-utils; peak RSS"""
    sizes = [200_000] if ctx.quick else [200_000, 1_000_000]
    sqlite_utils = [sys.executable, "-m", "sqlite_utils"]  # not the pyenv shim: no wrapper cost
    for size in sizes:
        label, records = count_label(size), ctx.records(size)
        # A full run does 3 runs at 1M: one run of the four commands takes over a minute.
        runs = 3 if size >= 1_000_000 else ctx.runs
        ours_db, peer_db = ctx.path(f"ingest-ours-{label}.db"), ctx.path("ingest-peer.db")
        sql_db = ctx.path("ingest-json-extract.db")
        sql_command, sql_script = json_extract_peer(ctx, records, sql_db)
        load, reload, peer_load, peer_reload, sql_load, peer_searchable = [], [], [], [], [], []
        memory, peer_memory = [], []  # peak RSS of the first load, MB
        for run in range(runs):
            log(f"   {label}: run {run + 1}/{runs}")
            remove_database(ours_db)
            first = ctx.run([ctx.tool("regions-load"), "--db", ours_db, records], peak_memory=True)
            expect_summary(first.stderr, f"read {size}, new {size}, updated 0, skipped 0")
            load.append(size / first.seconds)
            memory.append(first.peak_rss_mb)
            again = ctx.run([ctx.tool("regions-load"), "--db", ours_db, records])
            expect_summary(again.stderr, f"read {size}, new 0, updated 0, skipped {size}")
            reload.append(size / again.seconds)

            remove_database(peer_db)
            peer_first = ctx.run([*sqlite_utils, "insert", peer_db, "photos", records, "--nl", "--pk", "id"],
                                 peak_memory=True)
            peer_load.append(size / peer_first.seconds)
            peer_memory.append(peer_first.peak_rss_mb)
            # The same table made searchable as ours is (the columns photo_fts indexes), so
            # that the index's cost is on both sides.
            peer_fts = ctx.run([*sqlite_utils, "enable-fts", peer_db, "photos", "title", "description", "owner_name",
                                "region"])
            peer_searchable.append(size / (peer_first.seconds + peer_fts.seconds))
            peer_again = ctx.run([*sqlite_utils, "insert", peer_db, "photos", records, "--nl", "--pk", "id",
                                  "--ignore"])
            peer_reload.append(size / peer_again.seconds)

            remove_database(sql_db)
            by_hand = ctx.run(sql_command, stdin=sql_script, stdout=ctx.path("ingest-json-extract.out"))
            with open(ctx.path("ingest-json-extract.out"), encoding="utf-8") as counted:
                check(counted.read().split()[-1] == str(size), f"the json_extract peer did not store {size} photos")
            sql_load.append(size / by_hand.seconds)
        remove_database(peer_db)
        remove_database(sql_db)
        ctx.kept[f"loaded {size}"] = ours_db  # the query case reuses it
        ctx.add(Row(f"ingest {label}", "regions-load, new database", "records/s",
                    Stat(load), "sqlite-utils insert --pk id", Stat(peer_load), higher_is_better=True))
        ctx.add(Row(f"ingest {label}, searchable", "regions-load, new database", "records/s",
                    Stat(load), "sqlite-utils insert, then enable-fts of the same columns", Stat(peer_searchable),
                    higher_is_better=True))
        ctx.add(Row(f"ingest {label}, SQL by hand", "regions-load, new database", "records/s",
                    Stat(load), "sqlite3 CLI: .import, INSERT … SELECT json_extract", Stat(sql_load),
                    higher_is_better=True))
        # The peer for a reload is INSERT OR IGNORE: the cheapest command that leaves the
        # same table behind when every record is already stored (ours also checks each
        # stored photo for changes; sqlite-utils upsert would rewrite every row).
        ctx.add(Row(f"reload {label}", "regions-load again, all duplicates", "records/s",
                    Stat(reload), "sqlite-utils insert --ignore", Stat(peer_reload), higher_is_better=True))
        ctx.add(Row(f"ingest {label} memory", "regions-load peak RSS", "MB", Stat(memory),
                    "sqlite-utils insert peak RSS", Stat(peer_memory), comparison="times"))
        ratio = statistics.median(load) / statistics.median(peer_load)
        ctx.budget(f"ingest {label}: records/s vs sqlite-utils", f"≥ {INGEST_AT_LEAST}×", f"{ratio:.1f}×",
                   ratio >= INGEST_AT_LEAST)
        ctx.budget(f"ingest {label}: peak RSS", f"≤ {INGEST_RSS_AT_MOST} MB", f"{max(memory):.0f} MB",
                   max(memory) <= INGEST_RSS_AT_MOST)
        by_hand = statistics.median(load) / statistics.median(sql_load)
        ctx.budget(f"ingest {label}: records/s vs SQL by hand (sqlite3, json_extract)", "faster (> 1×)",
                   f"{by_hand:.2f}×", by_hand > 1)
