"""bin/bench's ingest peers: the SQL-by-hand loads, and the search index alone (the floor
under how a load's time grows), each checked to have done the work it is timed for."""

import sqlite3
import time

from bench_files import remove_database, sqlite_value
from bench_runner import check

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
