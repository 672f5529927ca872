"""bin/bench's ingest case: regions-load into a new database and again, against sqlite-utils
and SQL by hand (registered in bench_cases.CASES)."""

import statistics
import sys

from bench_files import copy_database, remove_database, sqlite_value
from bench_ingest_peers import (JSON_EXTRACT_PEER_SQL, SAME_ROWS_PEER_SQL, run_sql_peer, search_index_alone,
                                sql_peer, stored_rows)
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


def case_ingest(ctx):
    """regions-load at 200k (and 1M) records of bench's shape, new and again, then 20k more; vs sqlite-utils, SQL by hand; peak RSS"""
    ingest(ctx, "bench")


def case_ingest_many(ctx):
    """the same with Flickr's many photographers (~0.6 per photo), new, then 20k more; vs sqlite-utils, SQL by hand"""
    ingest(ctx, "many")


def ingest(ctx, shape):
    """Loads of 200k (and 1M) records of `shape` into a new database against the peers, then
    the following 20k records into the largest database."""
    sizes = [ctx.size(200_000)] if ctx.quick else [200_000, 1_000_000]
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
            expect_summary(load.stderr, f"read {size}, new {size}, updated 0, already stored 0")
            ours[size].append(load.seconds)
            alone[size].append(search_index_alone(ctx, loaded, size))
    remove_database(database)
    times = statistics.median(ours[largest]) / statistics.median(ours[smallest])
    index_times = statistics.median(alone[largest]) / statistics.median(alone[smallest])
    span = f"time from {count_label(smallest)} to {count_label(largest)}"
    ctx.add(Row(f"ingest{name}: {span}", "regions-load", "×", Stat([times]),
                "the search index alone, fed as regions-load feeds it", Stat([index_times]), comparison="times"))
    ctx.budget(f"ingest{name}: {span}", f"≤ {INGEST_GROWTH_AT_MOST}×", f"{times:.2f}×", times <= INGEST_GROWTH_AT_MOST)


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
        expect_summary(first.stderr, f"read {size}, new {size}, updated 0, already stored 0")
        load.append(first.seconds)
        memory.append(first.peak_rss_mb)
        if full:
            again = ctx.run([ctx.tool("regions-load"), "--db", ours_db, records])
            expect_summary(again.stderr, f"read {size}, new 0, updated 0, already stored {size}")
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


def ingest_following(ctx, shape, sizes):
    """The FOLLOWING records after each size's (a refresh's worth) into a copy of that
    database, the sizes taking turns: the time into the largest, and a peak RSS that does
    not grow with what the database holds."""
    count, name = ctx.following, shape_name(shape)
    database = ctx.path("ingest-following.db")
    runs = 3 if sizes[-1] >= 1_000_000 else ctx.runs
    seconds, memory = {size: [] for size in sizes}, {size: [] for size in sizes}
    for run in range(runs):
        log(f"   {count_label(count)} more into {', '.join(map(count_label, sizes))}{name}: run {run + 1}/{runs}")
        for size in sizes:
            copy_database(ctx.kept[f"loaded {size} {shape}"], database)
            more = ctx.run([ctx.tool("regions-load"), "--db", database, ctx.following_records(size, shape)],
                           peak_memory=True)
            expect_summary(more.stderr, f"read {count}, new {count}, updated 0, already stored 0")
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
