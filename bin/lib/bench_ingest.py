"""bin/bench's ingest case: regions-load into a new database and again, against sqlite-utils
and SQL by hand (registered in bench_cases.CASES)."""

import sqlite3
import statistics
import sys
import time

from bench_files import copy_database, remove_database, sqlite_value
from bench_results import Row, Stat, count_label
from bench_runner import check, log


def expect_summary(stderr, expected):
    """regions-load's summary line says what the run did; a benchmark of the wrong work is void."""
    check(expected in stderr, f"regions-load said {stderr.strip()!r}, expected {expected!r}")


# ----------------------------------------------------------------------------------------
# ingest (bench's shape: 1 photographer per 40 photos) and ingest-many (Flickr's: about 0.6
# per photo): regions-load into a new database, and 20k more records into the 1M database

INGEST_AT_LEAST = 1.5  # × sqlite-utils' plain insert, records/s into a new database
INGEST_RSS_AT_MOST = 64  # MB, regions-load's peak RSS, at every size and shape
INGEST_GROWTH_AT_MOST = 5.5  # × the 200k load's time, for 1M records (5× the work)
FOLLOWING_SECONDS_AT_MOST = 1.5  # the 20k following records into the 1M database
# MB, the 20k following records into the 1M database over the 20k following the 200k into
# that one: memory bounded by the batch, not by the photographers, photos or regions stored.
FOLLOWING_RSS_GROWTH_AT_MOST = 4

# What both SQL-by-hand peers make as ours does: the photo table's indexes, then the
# search index, and (in the transaction) the lines imported into `line`.
PHOTO_INDEXES_SQL = """\
CREATE INDEX photo_in_region ON photo (region, uploaded DESC, id) WHERE region IS NOT NULL;
CREATE INDEX photo_awaiting_place ON photo (place_id) WHERE region IS NULL AND place_id IS NOT NULL;
CREATE INDEX photo_by_view_order ON photo (view_seq DESC) WHERE view_seq IS NOT NULL;
CREATE INDEX photo_by_upload ON photo (uploaded DESC, id);
"""
SEARCH_INDEX_AND_IMPORT_SQL = """\
CREATE VIRTUAL TABLE photo_fts USING fts5(title, description, owner_name, region_name,
    content=[photo], tokenize='unicode61 remove_diacritics 2');
BEGIN;
.mode ascii
.separator "\\037" "\\n"
.import {records} line
"""

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
""" + PHOTO_INDEXES_SQL + SEARCH_INDEX_AND_IMPORT_SQL + """\
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


# The third peer: SQL by hand keeping the same rows as ours. The sqlite3 CLI imports the
# lines, then in one transaction stages their fields once, INSERT OR IGNOREs photographers
# (unique NSID) and regions (unique place id), fills a photo table with ours' columns,
# indexes and FTS5 index, referring to both by row id, upserts the (region, photographer)
# photo counts into a WITHOUT ROWID table, and counts each region's photographers and
# photos. What it leaves out: places, validation, repeats, updates of stored photos, and a
# batch at a time (its memory and its one transaction grow with the input).
SAME_ROWS_PEER_SQL = """\
PRAGMA journal_mode = WAL;
CREATE TABLE line (j TEXT);
CREATE TABLE photographer (id INTEGER PRIMARY KEY, nsid TEXT NOT NULL UNIQUE, name TEXT NOT NULL DEFAULT '');
CREATE TABLE region (
    id INTEGER PRIMARY KEY, place_id TEXT NOT NULL UNIQUE, name TEXT NOT NULL,
    photographers INTEGER NOT NULL DEFAULT 0, photos INTEGER NOT NULL DEFAULT 0);
CREATE TABLE photo (
    id TEXT NOT NULL UNIQUE, photographer INTEGER NOT NULL REFERENCES photographer(id),
    title TEXT NOT NULL, description TEXT NOT NULL, latitude REAL, longitude REAL, place_id TEXT,
    region INTEGER REFERENCES region(id), uploaded INTEGER, thumb_url TEXT, photo_url TEXT, extra TEXT,
    added_at INTEGER NOT NULL, viewed_at INTEGER, view_seq INTEGER, owner_name TEXT NOT NULL DEFAULT '',
    region_name TEXT);
""" + PHOTO_INDEXES_SQL + """\
CREATE TABLE region_photographer (
    region INTEGER NOT NULL, photographer INTEGER NOT NULL, photos INTEGER NOT NULL,
    PRIMARY KEY (region, photographer)) WITHOUT ROWID;
""" + SEARCH_INDEX_AND_IMPORT_SQL + """\
CREATE TEMP TABLE staged AS
    SELECT j ->> '$.id' AS id, j ->> '$.owner' AS owner, j ->> '$.owner_name' AS owner_name,
           j ->> '$.title' AS title, j ->> '$.description' AS description, j ->> '$.latitude' AS latitude,
           j ->> '$.longitude' AS longitude, j ->> '$.place_id' AS place_id, j ->> '$.uploaded' AS uploaded,
           j ->> '$.thumb_url' AS thumb_url, j ->> '$.photo_url' AS photo_url, j ->> '$.region_id' AS region_id,
           j ->> '$.region' AS region_name
    FROM line;
INSERT OR IGNORE INTO photographer (nsid, name) SELECT owner, owner_name FROM staged;
INSERT OR IGNORE INTO region (place_id, name) SELECT region_id, region_name FROM staged WHERE region_id IS NOT NULL;
INSERT INTO photo (id, photographer, owner_name, title, description, latitude, longitude, place_id,
                   uploaded, thumb_url, photo_url, region, region_name, added_at)
    SELECT s.id, p.id, s.owner_name, s.title, s.description, s.latitude, s.longitude, s.place_id,
           s.uploaded, s.thumb_url, s.photo_url, r.id, s.region_name, unixepoch()
    FROM staged s JOIN photographer p ON p.nsid = s.owner LEFT JOIN region r ON r.place_id = s.region_id;
INSERT INTO photo_fts (rowid, title, description, owner_name, region_name)
    SELECT rowid, title, description, owner_name, region_name FROM photo;
INSERT INTO region_photographer (region, photographer, photos)
    SELECT region, photographer, COUNT(*) FROM photo WHERE region IS NOT NULL GROUP BY region, photographer
    ON CONFLICT (region, photographer) DO UPDATE SET photos = photos + excluded.photos;
UPDATE region SET photographers = c.photographers, photos = c.photos
    FROM (SELECT region, COUNT(*) AS photographers, SUM(photos) AS photos FROM region_photographer GROUP BY region) c
    WHERE region.id = c.region;
DROP TABLE staged;
DELETE FROM line;
COMMIT;
.mode list
SELECT (SELECT COUNT(*) FROM photo), (SELECT COUNT(*) FROM photographer), (SELECT COUNT(*) FROM region_photographer);
"""


def sql_peer(ctx, template, records, database):
    """The sqlite3 CLI's command and script (its stdin) for one of the SQL-by-hand peers."""
    script = database + ".sql"
    with open(script, "w", encoding="utf-8") as out:
        out.write(template.format(records=records))
    return ["sqlite3", "-batch", database], script


def case_ingest(ctx):
    """regions-load at 200k (and 1M) records of bench's shape, new and again, then 20k more; vs sqlite-utils, SQL by hand; peak RSS"""
    ingest(ctx, "bench")


def case_ingest_many(ctx):
    """the same with Flickr's many photographers (~0.6 per photo), new, then 20k more; vs sqlite-utils, SQL by hand"""
    ingest(ctx, "many")


def ingest(ctx, shape):
    """Loads of 200k (and 1M) records of `shape` into a new database against the peers, then
    the following 20k records into the largest database."""
    sizes = [200_000] if ctx.quick else [200_000, 1_000_000]
    for size in sizes:
        ingest_new(ctx, shape, size)
    if len(sizes) > 1:
        growth(ctx, shape, sizes)
    ingest_following(ctx, shape, sizes)


def growth(ctx, shape, sizes):
    """How regions-load's time grows from the smallest size to the largest, against the
    search index alone's, from rounds in which the four take turns: this machine's speed
    drifts by a tenth within minutes, so sizes measured minutes apart (as ingest_new's are,
    each beside its peers) would put the drift into the ratio."""
    name, smallest, largest = shape_name(shape), sizes[0], sizes[-1]
    loaded = ctx.kept[f"loaded {largest} {shape}"]
    check(sqlite_value(loaded, "SELECT MAX(rowid) - MIN(rowid) + 1 FROM photo") == largest,
          f"{loaded} does not hold {largest} photos in consecutive rows")
    database = ctx.path("ingest-growth.db")
    ours, alone = {size: [] for size in sizes}, {size: [] for size in sizes}
    for run in range(ctx.runs):
        log(f"   {' and '.join(map(count_label, sizes))}{name}, regions-load and the search index alone "
            f"in turns: run {run + 1}/{ctx.runs}")
        for size in sizes:
            remove_database(database)
            load = ctx.run([ctx.tool("regions-load"), "--db", database, ctx.records(size, shape)])
            expect_summary(load.stderr, f"read {size}, new {size}, updated 0, skipped 0")
            ours[size].append(load.seconds)
            alone[size].append(search_index_alone(ctx, loaded, size))
    remove_database(database)
    times = statistics.median(ours[largest]) / statistics.median(ours[smallest])
    index_times = statistics.median(alone[largest]) / statistics.median(alone[smallest])
    span = f"time from {count_label(smallest)} to {count_label(largest)}"
    ctx.add(Row(f"ingest{name}: {span}", "regions-load", "×", Stat([times]),
                "the search index alone, fed as regions-load feeds it", Stat([index_times]), comparison="times"))
    ctx.budget(f"ingest{name}: {span}", f"≤ {INGEST_GROWTH_AT_MOST}×", f"{times:.2f}×", times <= INGEST_GROWTH_AT_MOST)


# How regions-load feeds its search index: a statement per batch (about 3 MB of record
# text: 6,000 records of Flickr's shape), a transaction per 40,000 records.
INDEX_ROWS_PER_STATEMENT = 6_000
INDEX_ROWS_PER_TRANSACTION = 40_000


def search_index_alone(ctx, loaded, size):
    """Seconds FTS5 alone takes to index the first `size` photos of `loaded` (a database
    regions-load made) with regions-load's index definition, batches and transactions,
    through Python's sqlite3 module (the same libsqlite3) and nothing else: the floor under
    how regions-load's time grows with the records, since its merges rewrite every entry
    once per level."""
    database = ctx.path("search-index-alone.db")
    remove_database(database)
    db = sqlite3.connect(database, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = NORMAL")
    db.execute("ATTACH ? AS loaded", (loaded,))
    db.execute("CREATE VIRTUAL TABLE photo_fts USING fts5(title, description, owner_name, region_name, "
               "content='', tokenize='unicode61 remove_diacritics 2')")
    first = db.execute("SELECT MIN(rowid) FROM loaded.photo").fetchone()[0]
    started = time.perf_counter()
    for transaction in range(first, first + size, INDEX_ROWS_PER_TRANSACTION):
        end = min(transaction + INDEX_ROWS_PER_TRANSACTION, first + size)
        db.execute("BEGIN IMMEDIATE")
        for statement in range(transaction, end, INDEX_ROWS_PER_STATEMENT):
            db.execute("INSERT INTO photo_fts (rowid, title, description, owner_name, region_name) "
                       "SELECT rowid, title, description, owner_name, region_name FROM loaded.photo "
                       "WHERE rowid >= ? AND rowid < ?", (statement, min(statement + INDEX_ROWS_PER_STATEMENT, end)))
        db.execute("COMMIT")
    took = time.perf_counter() - started
    indexed = db.execute("SELECT COUNT(*) FROM photo_fts_docsize").fetchone()[0]
    db.close()
    check(indexed == size, f"the search index alone holds {indexed} photos, expected {size}")
    remove_database(database)
    return took


def shape_name(shape):
    return "" if shape == "bench" else ", many photographers"


def ingest_new(ctx, shape, size):
    """regions-load of `size` records into a new database, against the peers. Bench's shape
    also loads them again (all duplicates), and has the json_extract peer (photos only);
    both shapes the peer keeping the same rows."""
    full = shape == "bench"
    sqlite_utils = [sys.executable, "-m", "sqlite_utils"]  # not the pyenv shim: no wrapper cost
    label, records = count_label(size) + shape_name(shape), ctx.records(size, shape)
    # A full run does 3 runs at 1M: one run of the commands takes over a minute.
    runs = 3 if size >= 1_000_000 else ctx.runs
    ours_db, peer_db = ctx.path(f"ingest-ours-{shape}-{count_label(size)}.db"), ctx.path("ingest-peer.db")
    json_db, same_rows_db = ctx.path("ingest-json-extract.db"), ctx.path("ingest-same-rows.db")
    json_peer = sql_peer(ctx, JSON_EXTRACT_PEER_SQL, records, json_db)
    same_rows_peer = sql_peer(ctx, SAME_ROWS_PEER_SQL, records, same_rows_db)
    load, reload, peer_load, peer_reload, json_load, same_rows_load, peer_searchable = [], [], [], [], [], [], []
    memory, peer_memory = [], []  # peak RSS of the first load, MB
    for run in range(runs):
        log(f"   {label}: run {run + 1}/{runs}")
        remove_database(ours_db)
        first = ctx.run([ctx.tool("regions-load"), "--db", ours_db, records], peak_memory=True)
        expect_summary(first.stderr, f"read {size}, new {size}, updated 0, skipped 0")
        load.append(first.seconds)
        memory.append(first.peak_rss_mb)
        if full:
            again = ctx.run([ctx.tool("regions-load"), "--db", ours_db, records])
            expect_summary(again.stderr, f"read {size}, new 0, updated 0, skipped {size}")
            reload.append(size / again.seconds)

        remove_database(peer_db)
        peer_first = ctx.run([*sqlite_utils, "insert", peer_db, "photos", records, "--nl", "--pk", "id"],
                             peak_memory=True)
        peer_load.append(peer_first.seconds)
        peer_memory.append(peer_first.peak_rss_mb)
        # The same table made searchable as ours is (the columns photo_fts indexes), so
        # that the index's cost is on both sides.
        peer_fts = ctx.run([*sqlite_utils, "enable-fts", peer_db, "photos", "title", "description", "owner_name",
                            "region"])
        peer_searchable.append(peer_first.seconds + peer_fts.seconds)
        if full:
            peer_again = ctx.run([*sqlite_utils, "insert", peer_db, "photos", records, "--nl", "--pk", "id",
                                  "--ignore"])
            peer_reload.append(size / peer_again.seconds)
            json_load.append(run_sql_peer(ctx, json_peer, json_db, [size]))
        same_rows_load.append(run_sql_peer(ctx, same_rows_peer, same_rows_db, [size, *stored_rows(ours_db)]))
    for database in (peer_db, json_db, same_rows_db):
        remove_database(database)
    if full:
        ctx.kept[f"loaded {size}"] = ours_db  # the query case reuses it
    ctx.kept[f"loaded {size} {shape}"] = ours_db

    def per_second(samples):
        return Stat([size / seconds for seconds in samples])
    ctx.add(Row(f"ingest {label}", "regions-load, new database", "records/s",
                per_second(load), "sqlite-utils insert --pk id", per_second(peer_load), higher_is_better=True))
    ctx.add(Row(f"ingest {label}, searchable", "regions-load, new database", "records/s",
                per_second(load), "sqlite-utils insert, then enable-fts of the same columns",
                per_second(peer_searchable), higher_is_better=True))
    if full:
        ctx.add(Row(f"ingest {label}, SQL by hand", "regions-load, new database", "records/s",
                    per_second(load), "sqlite3 CLI: .import, INSERT … SELECT json_extract", per_second(json_load),
                    higher_is_better=True))
    ctx.add(Row(f"ingest {label}, SQL by hand, same rows", "regions-load, new database", "records/s",
                per_second(load), "sqlite3 CLI: .import, photographers, regions, photos, counts",
                per_second(same_rows_load), higher_is_better=True))
    if full:
        # The peer for a reload is INSERT OR IGNORE: the cheapest command that leaves the
        # same table behind when every record is already stored (ours also checks each
        # stored photo for changes; sqlite-utils upsert would rewrite every row).
        ctx.add(Row(f"reload {label}", "regions-load again, all duplicates", "records/s",
                    Stat(reload), "sqlite-utils insert --ignore", Stat(peer_reload), higher_is_better=True))
    ctx.add(Row(f"ingest {label} memory", "regions-load peak RSS", "MB", Stat(memory),
                "sqlite-utils insert peak RSS", Stat(peer_memory), comparison="times"))
    ratio = statistics.median(peer_load) / statistics.median(load)
    ctx.budget(f"ingest {label}: records/s vs sqlite-utils", f"≥ {INGEST_AT_LEAST}×", f"{ratio:.1f}×",
               ratio >= INGEST_AT_LEAST)
    ctx.budget(f"ingest {label}: peak RSS", f"≤ {INGEST_RSS_AT_MOST} MB", f"{max(memory):.0f} MB",
               max(memory) <= INGEST_RSS_AT_MOST)
    if full:
        by_hand = statistics.median(json_load) / statistics.median(load)
        ctx.budget(f"ingest {label}: records/s vs SQL by hand (sqlite3, json_extract)", "faster (> 1×)",
                   f"{by_hand:.2f}×", by_hand > 1)
    same_rows = statistics.median(same_rows_load) / statistics.median(load)
    ctx.budget(f"ingest {label}: records/s vs SQL by hand keeping the same rows", "faster (> 1×)",
               f"{same_rows:.2f}×", same_rows > 1)


def stored_rows(database):
    """The photographers and (region, photographer) pairs a database of ours holds."""
    return [sqlite_value(database, "SELECT COUNT(*) FROM photographer"),
            sqlite_value(database, "SELECT COUNT(*) FROM region_photographer")]


def run_sql_peer(ctx, peer, database, expected):
    """Runs an SQL-by-hand peer into a new database; its seconds. Its last line must be
    `expected` (photos, and what else it counts), or it did not do the work measured."""
    command, script = peer
    remove_database(database)
    run = ctx.run(command, stdin=script, stdout=database + ".out")
    with open(database + ".out", encoding="utf-8") as counted:
        said = counted.read().split()[-1].split("|")
    check(said == [str(n) for n in expected], f"{command[-1]}: the SQL-by-hand peer stored {said}, not {expected}")
    return run.seconds


def ingest_following(ctx, shape, sizes):
    """The FOLLOWING records after each size's (a refresh's worth) into a copy of that
    database, the sizes taking turns: the time into the largest, and a peak RSS that does
    not grow with what the database holds."""
    count, name = ctx.FOLLOWING, shape_name(shape)
    database = ctx.path("ingest-following.db")
    runs = 3 if sizes[-1] >= 1_000_000 else ctx.runs
    seconds, memory = {size: [] for size in sizes}, {size: [] for size in sizes}
    for run in range(runs):
        log(f"   {count_label(count)} more into {', '.join(map(count_label, sizes))}{name}: run {run + 1}/{runs}")
        for size in sizes:
            copy_database(ctx.kept[f"loaded {size} {shape}"], database)
            more = ctx.run([ctx.tool("regions-load"), "--db", database, ctx.following_records(size, shape)],
                           peak_memory=True)
            expect_summary(more.stderr, f"read {count}, new {count}, updated 0, skipped 0")
            seconds[size].append(more.seconds)
            memory[size].append(more.peak_rss_mb)
    remove_database(database)
    smallest, largest = sizes[0], sizes[-1]
    label = f"{count_label(count)} into {count_label(largest)}{name}"
    compared = f"the same into {count_label(smallest)}" if largest != smallest else ""
    peer = (lambda samples: Stat(samples[smallest])) if compared else (lambda samples: None)
    ctx.add(Row(f"ingest {label}", "regions-load of the next records", "s", Stat(seconds[largest]),
                compared, peer(seconds), comparison="times"))
    ctx.add(Row(f"ingest {label} memory", "regions-load peak RSS", "MB", Stat(memory[largest]),
                compared, peer(memory), comparison="delta"))
    took = statistics.median(seconds[largest])
    ctx.budget(f"ingest {label}: time", f"≤ {FOLLOWING_SECONDS_AT_MOST} s", f"{took:.2f} s",
               took <= FOLLOWING_SECONDS_AT_MOST)
    peak = max(memory[largest])
    if not compared:  # --quick: one size, nothing to grow from
        ctx.budget(f"ingest {label}: peak RSS", f"≤ {INGEST_RSS_AT_MOST} MB", f"{peak:.0f} MB",
                   peak <= INGEST_RSS_AT_MOST)
        return
    growth = peak - max(memory[smallest])
    ctx.budget(f"ingest {label}: peak RSS", f"≤ {INGEST_RSS_AT_MOST} MB, ≤ +{FOLLOWING_RSS_GROWTH_AT_MOST} MB over "
               f"{count_label(smallest)}", f"{peak:.0f} MB, {growth:+.1f} MB",
               peak <= INGEST_RSS_AT_MOST and growth <= FOLLOWING_RSS_GROWTH_AT_MOST)
