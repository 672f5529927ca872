"""bin/bench's cases: one function each, registered by name in CASES (at the end).

Run one alone with `bin/bench --case NAME` (repeatable, or comma-separated; they run in
CASES' order); `bin/bench --list` prints the names.

Adding a case:
  1. Write `def case_NAME(ctx):` here (or in a module of its own, imported here). Its first
     docstring line is what `bin/bench --list` says about it. Build inputs under
     ctx.path(...) (ctx.records(n) for photo records), run the built tools with
     ctx.run([ctx.tool("regions-top"), ...]) (returns .seconds, .stderr, and .peak_rss_mb
     with peak_memory=True), and measure ours against a peer in the same run, alternately
     (ctx.alternate) so that the machine's load hits both.
  2. ctx.add(Row(...)) per measurement (bench_results.Row: case, what, unit, Stat(ours),
     the peer's label, Stat(peer), and how to compare them), and ctx.budget(name, target,
     measured, met) per target. Keep a budget's number in a constant just above the function.
  3. Raise BenchError (or check(condition, message)) when the work measured was not the
     work intended (wrong counts, a command failed): the case is then reported as not
     measured and bin/bench exits 1. A missed budget is reported, not an error.
  4. Register it in CASES. To use what another case builds (a database, a fake), ask
     ctx.once(key, make): the other case's, when it ran first and left it in
     ctx.kept[key], else what make() builds now; either case then also runs alone.
Sizes: a full run takes about ten minutes on two cores; keep --quick (ctx.quick) under
two to three minutes in all, and use ctx.runs runs per measurement (5, or 3 with --quick).
bin/test runs every case once at a tiny size (bin/bench --smoke: ctx.smoke, with ctx.quick
set too, so it takes the --quick branches): pass every size through ctx.size(n) (n, or a
hundredth in a smoke run; ctx.size(n, smoke=m) when a hundredth does not fit), every other
count of runs or rounds through ctx.repeat(n) (n, or once), and a smoke run stays within a
minute or two on the debug build and still does each check.

For example:

    CSV_AT_MOST = 1.5  # × the NDJSON of the same question

    def case_csv(ctx):
        '''regions-top --format csv vs --format ndjson, top 50 at 100k photos'''
        top = [ctx.tool("regions-top"), "--db", loaded_database(ctx, ctx.size(100_000)), "--limit", "50"]
        csv, ndjson = ctx.alternate(lambda: ctx.run([*top, "--format", "csv"]).seconds * 1e3,
                                    lambda: ctx.run([*top, "--format", "ndjson"]).seconds * 1e3,
                                    runs=ctx.runs * 2, warmup=1)
        ctx.add(Row("csv top 50", "regions-top --format csv", "ms", csv, "--format ndjson", ndjson,
                    comparison="times"))
        ratio = csv.median / ndjson.median
        ctx.budget("csv top 50", f"within {CSV_AT_MOST}× NDJSON", f"{ratio:.2f}×", ratio <= CSV_AT_MOST)

    CASES = {..., "csv": case_csv}
"""

import base64
import os
import re
import shutil
import sqlite3
import statistics
import sys
import time

import bench_html
import bench_ingest
import bench_renames
import bench_windows
import bench_json
import bench_serve
from bench_fake import Fake
from bench_ingest import expect_summary
from bench_files import (copy_database, curl_command, cut_to_places, directory_bytes, remove_database,
                         sqlite_rows, sqlite_value, write_first_record, write_lines)
from bench_results import Row, Stat, count_label
from bench_runner import BenchError, check, log

TOOLS = ["flickr-recent", "place-resolve", "regions-load", "regions-top", "thumb-get", "photo-cache", "regions-serve"]


def loaded_database(ctx, size):
    """A database of `size` generated records: the ingest case's when it loaded that size."""
    def load():
        database = ctx.path(f"query-{count_label(size)}.db")
        remove_database(database)
        ctx.run([ctx.tool("regions-load"), "--db", database, ctx.records(size)])
        return database
    return ctx.once(f"loaded {size}", load)


# ----------------------------------------------------------------------------------------
# query: the top-50 regions, in process and as a whole process, vs the newcomer's SQL

# The question, as a newcomer would ask it of our schema: count distinct photographers per
# region by scanning every photo. This is what the maintained counts are measured against.
NEWCOMER_TOP50 = (
    "SELECT r.name, COUNT(DISTINCT p.photographer) AS n FROM photo p JOIN region r ON r.id = p.region "
    "GROUP BY p.region ORDER BY n DESC, r.name LIMIT 50")
# What regions-top runs: a walk of the region_ranking partial index that stops after 50 rows.
OURS_TOP50 = (
    "SELECT place_id, name, photographers, photos FROM region WHERE photographers > 0 "
    "ORDER BY photographers DESC, sort_key, place_id LIMIT 50")
QUERY_GROWTH_AT_MOST = 2  # × from the smallest size to the largest
QUERY_SPEEDUP_AT_LEAST = 100  # × the newcomer's SQL at the largest size


def case_query(ctx):
    """the top-50 query at 10k/100k (/1M) photos, in process and whole process, vs COUNT(DISTINCT)"""
    sizes = [ctx.size(10_000), ctx.size(100_000)] if ctx.quick else [10_000, 100_000, 1_000_000]
    databases = {size: loaded_database(ctx, size) for size in sizes}  # 1M: the ingest case's database
    log(f"   {', '.join(count_label(size) for size in sizes)} photos")
    in_process, newcomer = time_queries_in_process(ctx, databases)

    for size in sizes:
        label, database = count_label(size), databases[size]
        ctx.add(Row(f"query {label}", "top-50 query, in process", "ms", in_process[size],
                    "newcomer's SQL, in process", newcomer[size]))
        # The whole process: what a user waits for at the prompt.
        top = [ctx.tool("regions-top"), "--db", database, "--limit", "50", "--format", "ndjson"]
        cli = ["sqlite3", database, NEWCOMER_TOP50]
        ours_process, peer_process = ctx.alternate(
            lambda: ctx.run(top).seconds * 1e3, lambda: ctx.run(cli).seconds * 1e3, runs=ctx.repeat(ctx.runs * 2),
            warmup=1)
        ctx.add(Row(f"query {label} process", "regions-top --limit 50", "ms",
                    ours_process, "sqlite3 CLI, newcomer's SQL", peer_process))

    smallest, largest = sizes[0], sizes[-1]
    growth = in_process[largest].median / in_process[smallest].median
    ctx.budget(f"top-50 query at {count_label(largest)} vs at {count_label(smallest)}",
               f"within {QUERY_GROWTH_AT_MOST}×", f"{growth:.2f}×", growth <= QUERY_GROWTH_AT_MOST)
    speedup = newcomer[largest].median / in_process[largest].median
    ctx.budget(f"top-50 query at {count_label(largest)} vs newcomer's SQL", f"≥ {QUERY_SPEEDUP_AT_LEAST}× faster",
               f"{speedup:,.0f}× faster", speedup >= QUERY_SPEEDUP_AT_LEAST)


def time_queries_in_process(ctx, databases):
    """Both queries in process, each database on its own read-only connection (the same
    sqlite3 module for both), warm, timed from execute to the last row fetched.

    Ours takes tens of microseconds, so one sample is the mean of a batch of 20
    executions, and the sizes take turns batch by batch: a burst of load on the machine
    then lands on every size alike instead of skewing the growth between them. The
    newcomer's query runs ctx.runs times per size."""
    connections = {size: sqlite3.connect(f"file:{path}?mode=ro", uri=True) for size, path in databases.items()}
    try:
        for size, connection in connections.items():
            ours_rows = connection.execute(OURS_TOP50).fetchall()
            newcomer_rows = connection.execute(NEWCOMER_TOP50).fetchall()
            # The maintained counts must equal the recomputation (ties may order differently).
            check([row[2] for row in ours_rows] == [row[1] for row in newcomer_rows],
                  f"{databases[size]}: regions-top's counts differ from COUNT(DISTINCT)")

        def timed(connection, sql, batch):
            started = time.perf_counter()
            for _ in range(batch):
                connection.execute(sql).fetchall()
            return (time.perf_counter() - started) * 1e3 / batch
        ours = {size: [] for size in connections}
        for _ in range(ctx.repeat(50)):
            for size, connection in connections.items():
                ours[size].append(timed(connection, OURS_TOP50, 20))
        newcomer = {size: Stat([timed(connection, NEWCOMER_TOP50, 1) for _ in range(ctx.runs)])
                    for size, connection in connections.items()}
        return {size: Stat(samples) for size, samples in ours.items()}, newcomer
    finally:
        for connection in connections.values():
            connection.close()


# ----------------------------------------------------------------------------------------
# resolve: place-resolve against the fake at 100 ms a request, at --parallel 1, 4 and 8

RESOLVE_WITHIN = 1.3  # × the bound N × latency / P


def case_resolve(ctx):
    """place-resolve of 100 (400) new places at 100 ms latency, --parallel 1/4/8, vs N × latency / P"""
    places = ctx.size(100, smoke=16) if ctx.quick else 400
    latency = 0.100
    # A world with more places than any run needs: 129 regions × 4 localities, plus 40
    # country-level places; its 12 hours of photos cover ~480 of them.
    fake = Fake(ctx.runner, "resolution", "--photos", 10_000, "--regions", 129, "--places-per-region", 4,
                "--country-places", 40)
    try:
        fetched = ctx.path("resolution-fetched.ndjson")
        ctx.run([ctx.tool("flickr-recent"), "--db", ctx.path("resolution-fetch.db"), "--license", "any", "--quiet"],
                stdout=fetched, env=fake.env)
        records = ctx.path(f"resolution-{places}-places.ndjson")
        distinct = cut_to_places(fetched, records, places)
        if distinct < places:
            raise BenchError(f"the fake's photos cover only {distinct} places, not {places}")
        fake.set_latency(int(latency * 1000))
        log(f"   {places} places, {latency * 1000:.0f} ms latency")

        first_requests, rerun_requests = [], []
        for parallel in (1, 4, 8):
            # A full run does 3 runs at --parallel 1 (~40 s each).
            runs = ctx.repeat(3) if parallel == 1 else ctx.runs
            seconds = []
            for run in range(runs):
                log(f"   --parallel {parallel}: run {run + 1}/{runs}")
                database = ctx.path("resolution.db")
                remove_database(database)
                command = [ctx.tool("place-resolve"), "--db", database, "--parallel", str(parallel), "--quiet",
                           records]
                mark = fake.mark()
                seconds.append(ctx.run(command, env=fake.env).seconds)
                first_requests.append(fake.requests_since(mark)["flickr.places.getInfo"])
                if run == 0:
                    # The same records again: every place is known now, nothing is asked.
                    mark = fake.mark()
                    ctx.run(command, env=fake.env)
                    rerun_requests.append(sum(fake.requests_since(mark).values()))
            bound = places * latency / parallel
            row = Row(f"resolve --parallel {parallel}", f"place-resolve, {places} new places, 100 ms", "s",
                      Stat(seconds), "bound N × latency / P", Stat([bound]), comparison="bound")
            ctx.add(row)
            ctx.budget(f"resolution at --parallel {parallel}", f"within {RESOLVE_WITHIN}× of the bound",
                       f"{row.ratio:.2f}×", row.ratio <= RESOLVE_WITHIN)
        ctx.add(Row("resolve requests", "getInfo calls, first run", "requests", Stat(first_requests),
                    "exactly N", Stat([places]), comparison="expect"))
        ctx.add(Row("resolve rerun requests", "calls, same records again (once per P)", "requests",
                    Stat(rerun_requests), "none", Stat([0]), comparison="expect"))
        check(set(first_requests) == {places},
              f"place-resolve asked {sorted(set(first_requests))} places, not {places}")
        check(set(rerun_requests) == {0}, f"place-resolve asked again on a rerun: {sorted(set(rerun_requests))}")
    finally:
        fake.stop()


# ----------------------------------------------------------------------------------------
# refresh, thumbs, photos: one fake world of 5,000 photos, which they share

REFRESH_PHOTOS = 5_000
NEWEST_PHOTOS = 1_000  # what thumbs and photos take from the refreshed database
THUMBS_PHOTOS = 500  # of those, what thumbs fetches


def refresh_fake(ctx):
    """The fake that refresh, thumbs and photos share (the databases hold its URLs). Started
    by the first of them to run, stopped at the end of the run."""
    return ctx.once("refresh fake", lambda: Fake(ctx.runner, "refresh", "--photos", ctx.size(REFRESH_PHOTOS)))


def refresh_pipeline(ctx, database, *recent_flags):
    return [[ctx.tool("flickr-recent"), "--db", database, "--license", "any", "--quiet", *recent_flags],
            [ctx.tool("place-resolve"), "--db", database, "--quiet"],
            [ctx.tool("regions-load"), "--db", database, "--quiet"]]


def refreshed_database(ctx):
    """A database refreshed from the refresh fake: the refresh case's, or one refresh."""
    def refresh_once():
        database = ctx.path("refresh.db")
        remove_database(database)
        ctx.pipeline(refresh_pipeline(ctx, database), env=refresh_fake(ctx).env)
        return database
    return ctx.once("refreshed", refresh_once)


def case_refresh(ctx):
    """flickr-recent | place-resolve | regions-load of 5,000 photos, then again with --since-last"""
    fake, database, photos = refresh_fake(ctx), ctx.path("refresh.db"), ctx.size(REFRESH_PHOTOS)
    first, second, first_requests, second_requests = [], [], [], []
    for run in range(ctx.runs):
        log(f"   refresh: run {run + 1}/{ctx.runs}")
        remove_database(database)
        mark = fake.mark()
        first.append(ctx.pipeline(refresh_pipeline(ctx, database), env=fake.env).seconds)
        first_requests.append(sum(fake.requests_since(mark).values()))
        mark = fake.mark()
        second.append(ctx.pipeline(refresh_pipeline(ctx, database, "--since-last"), env=fake.env).seconds)
        second_requests.append(sum(fake.requests_since(mark).values()))
    stored = sqlite_value(database, "SELECT COUNT(*) FROM photo")
    check(stored == photos, f"the refresh stored {stored} photos, not {photos}")
    ctx.kept["refreshed"] = database  # thumbs and photos use it
    # No competitor here: the reference is the next refresh from cron, incremental.
    ctx.add(Row("refresh", f"recent | resolve | load, {photos:,} photos", "s", Stat(first),
                "the same again, --since-last", Stat(second), comparison="times"))
    ctx.add(Row("refresh requests", "Flickr calls, first refresh", "requests", Stat(first_requests),
                "the same again, --since-last", Stat(second_requests), comparison="times"))


def newest_photos(ctx):
    """(database, [(id, thumb URL, photo URL)]): a copy of the refreshed database that thumbs
    and photos start every run from, and its newest 1,000 (NEWEST_PHOTOS) photos."""
    def copy():
        base, newest = ctx.path("images-base.db"), ctx.size(NEWEST_PHOTOS)
        copy_database(refreshed_database(ctx), base)
        photos = sqlite_rows(base, f"SELECT id, thumb_url, photo_url FROM photo ORDER BY uploaded DESC, id LIMIT {newest}")
        check(len(photos) == newest, f"the refreshed database has {len(photos)} photos, not {newest}")
        return base, photos
    return ctx.once("images base", copy)


def case_thumbs(ctx):
    """thumb-get of 500 photos, cold and warm, vs curl fetching the same URLs"""
    fake = refresh_fake(ctx)
    base, photos = newest_photos(ctx)
    photos = photos[:ctx.size(THUMBS_PHOTOS)]
    count = len(photos)
    ids = write_lines(ctx.path("thumb-ids.txt"), [photo[0] for photo in photos])
    # The peer: curl fetching the same URLs as fast as it can, to /dev/null, with the same
    # parallelism as the tool's default.
    curl = curl_command(ctx.path("thumbs.curl"), [photo[1] for photo in photos], parallel=4)
    database = ctx.path("images.db")
    thumb_get = [ctx.tool("thumb-get"), "--db", database]
    cold, warm, peer, cold_requests, warm_requests = [], [], [], [], []
    for run in range(ctx.runs):
        log(f"   thumb-get: run {run + 1}/{ctx.runs}")
        copy_database(base, database)
        mark = fake.mark()
        cold.append(ctx.run(thumb_get, stdin=ids, env=fake.env).seconds)
        cold_requests.append(fake.requests_since(mark)["image"])
        mark = fake.mark()
        warm.append(ctx.run(thumb_get, stdin=ids, env=fake.env).seconds)
        warm_requests.append(sum(fake.requests_since(mark).values()))
        peer.append(ctx.run(curl).seconds)
    ctx.add(Row("thumbs cold", f"thumb-get {count:,} photos, none stored", "s", Stat(cold),
                "curl, same URLs, 4 at once", Stat(peer)))
    ctx.add(Row("thumbs warm", f"thumb-get the same {count:,}, all stored", "s", Stat(warm), "thumbs cold",
                Stat(cold)))
    ctx.add(Row("thumbs requests", "image requests, cold", "requests", Stat(cold_requests), "one per photo",
                Stat([count]), comparison="expect"))
    ctx.add(Row("thumbs warm requests", "requests, warm", "requests", Stat(warm_requests), "none",
                Stat([0]), comparison="expect"))


def case_photos(ctx):
    """photo-cache of 1,000 photos through a 10 MB cache, vs curl fetching the same URLs"""
    fake = refresh_fake(ctx)
    base, photos = newest_photos(ctx)
    # A smoke run's 50 photos still weigh more than the cache holds (the fake's are 150 to 600 KB).
    photos = photos[:ctx.size(NEWEST_PHOTOS, smoke=50)]
    ids = write_lines(ctx.path("photo-ids.txt"), [photo[0] for photo in photos])
    curl = curl_command(ctx.path("photos.curl"), [photo[2] for photo in photos], parallel=2)
    database, cache = ctx.path("images.db"), ctx.path("photo-cache-evicting")
    command = [ctx.tool("photo-cache"), "--db", database, "--cache-dir", cache, "--max-bytes", "10M"]
    per_photo, peer_per_photo, downloads, cache_bytes = [], [], [], []
    for run in range(ctx.runs):
        log(f"   photo-cache {len(photos):,} photos: run {run + 1}/{ctx.runs}")
        copy_database(base, database)
        shutil.rmtree(cache, ignore_errors=True)
        mark = fake.mark()
        per_photo.append(ctx.run(command, stdin=ids, env=fake.env).seconds / len(photos) * 1e3)
        downloads.append(fake.requests_since(mark)["image"])
        # The photos a run printed stay until it ends, past the cap; the next run trims.
        ctx.run(command + ["--prune", "--quiet"], env=fake.env)
        cache_bytes.append(directory_bytes(cache))
        peer_per_photo.append(ctx.run(curl).seconds / len(photos) * 1e3)
    check(set(downloads) == {len(photos)}, f"photo-cache downloaded {sorted(set(downloads))} photos, not {len(photos)}")
    check(max(cache_bytes) <= 10 * 1024 * 1024, f"the cache holds {max(cache_bytes):,} bytes after a prune, over 10 MB")
    ctx.add(Row("photo-cache evicting", f"{len(photos):,} photos, 10 MB cache", "ms/photo", Stat(per_photo),
                "curl, same URLs, 2 at once", Stat(peer_per_photo)))


# ----------------------------------------------------------------------------------------
# large-photo: photo-cache's peak memory on a 40 MB photo

LARGE_PHOTO_GROWTH_AT_MOST = 10  # MB of peak RSS above the same command on a cache hit


def case_large_photo(ctx):
    """photo-cache's peak RSS downloading a 40 MB photo vs the same command on a cache hit"""
    large = 40 * 1024 * 1024
    fake = Fake(ctx.runner, "large", "--photos", 200, "--large-bytes", large)
    try:
        database, cache = ctx.path("large.db"), ctx.path("photo-cache-large")
        ctx.pipeline([
            [ctx.tool("flickr-recent"), "--db", database, "--license", "any", "--pages", "1", "--per-page", "10",
             "--quiet"],
            [ctx.tool("regions-load"), "--db", database, "--quiet"]], env=fake.env)
        photo = sqlite_value(database, "SELECT id FROM photo ORDER BY id LIMIT 1")
        # A cap above the photo, so that it is kept and the second run is a cache hit.
        command = [ctx.tool("photo-cache"), "--db", database, "--cache-dir", cache, "--max-bytes", "100M",
                   "--max-photo-bytes", "64M", photo]  # 40 MB is over the default limit of one photo (32M)
        download_rss, hit_rss = [], []
        for run in range(ctx.runs):
            log(f"   photo-cache 40 MB: run {run + 1}/{ctx.runs}")
            shutil.rmtree(cache, ignore_errors=True)
            mark = fake.mark()
            download_rss.append(ctx.run(command, env=fake.env, peak_memory=True).peak_rss_mb)
            check(fake.requests_since(mark)["image"] == 1, "photo-cache did not download the 40 MB photo")
            check(directory_bytes(cache) >= large, "the 40 MB photo is not in the cache")
            mark = fake.mark()
            hit_rss.append(ctx.run(command, env=fake.env, peak_memory=True).peak_rss_mb)
            check(sum(fake.requests_since(mark).values()) == 0, "the second photo-cache run downloaded again")
    finally:
        fake.stop()
    row = Row("photo-cache 40 MB", "peak RSS, one 40 MB download", "MB", Stat(download_rss),
              "idle: same command, cache hit", Stat(hit_rss), comparison="delta")
    ctx.add(row)
    growth = row.ours.median - row.peer.median
    ctx.budget("photo-cache peak memory, 40 MB photo", f"within {LARGE_PHOTO_GROWTH_AT_MOST} MB of idle",
               f"{growth:+.1f} MB", growth <= LARGE_PHOTO_GROWTH_AT_MOST)


# ----------------------------------------------------------------------------------------
# startup: whole-process times of tiny commands

STARTUP_UNDER_MS = 20  # every --help, whole process


def case_startup(ctx):
    """every tool's --help and a query of a one-photo database, whole process, vs python3 -c 'import sqlite3'"""
    # All of the commands take turns, round by round, so that a burst of load on the
    # machine lands on every command alike.
    runs = ctx.repeat(10 if ctx.quick else 20)
    one = ctx.path("one-photo.db")
    ctx.run([ctx.tool("regions-load"), "--db", one, "--quiet",
             write_first_record(ctx.records(ctx.size(10_000)), ctx.path("one-photo.ndjson"))])
    commands = {"python": [sys.executable, "-c", "import sqlite3"]}
    for tool in TOOLS + ["flickr-fake"]:
        commands[tool] = [ctx.tool(tool), "--help"]
    commands["query"] = [ctx.tool("regions-top"), "--db", one, "--limit", "50", "--format", "ndjson", "--no-refresh"]
    for _ in range(ctx.warmup()):
        for argv in commands.values():
            ctx.run(argv)  # warm-up: page cache, dynamic loader
    samples = {name: [] for name in commands}
    order = list(commands)
    for _ in range(runs):
        for name in order:
            samples[name].append(ctx.run(commands[name]).seconds * 1e3)
        order = order[1:] + order[:1]  # rotate: no command always follows the same one

    python, python_label = Stat(samples["python"]), "python3 -c 'import sqlite3'"
    for tool in TOOLS + ["flickr-fake"]:
        ctx.add(Row(f"startup {tool}", f"{tool} --help", "ms", Stat(samples[tool]), python_label, python))
    ctx.add(Row("startup query", "regions-top, one-photo database", "ms", Stat(samples["query"]),
                python_label, python))
    slowest = max(TOOLS + ["flickr-fake"], key=lambda tool: statistics.median(samples[tool]))
    slowest_median = statistics.median(samples[slowest])
    ctx.budget("every --help, whole process", f"under {STARTUP_UNDER_MS} ms",
               f"slowest {slowest_median:.1f} ms ({slowest})", slowest_median < STARTUP_UNDER_MS)


# ----------------------------------------------------------------------------------------
# html: regions-top's HTML pages next to the NDJSON of the same question (issue 10, item 5)

# The page may take up to this many times the NDJSON of the same question, plus what moving
# the thumbnails' bytes costs: cat of a file of their size less cat of an empty file, both
# whole processes writing to /dev/null like the pages (the top-50 page has no thumbnails).
HTML_AT_MOST = 2
# Photos on a page of a list, at most (Flickr's terms; Paging.size): the region's page shows
# its first 30, with the map of all of them.
HTML_PAGE_PHOTOS = 30


def html_database(ctx, size):
    """A database of `size` generated photos plus bench_html's region of 500 photos, each
    with a stored thumbnail; built once per run."""
    def build():
        database = ctx.path(f"html-{count_label(size)}.db")
        remove_database(database)
        region = bench_html.write_region_records(ctx.path("html-region.ndjson"))
        load = ctx.run([ctx.tool("regions-load"), "--db", database, ctx.records(size), region])
        total = size + bench_html.REGION_PHOTOS
        expect_summary(load.stderr, f"read {total}, new {total}, updated 0, already stored 0")
        bench_html.store_thumbnails(database)
        return database
    return ctx.once(f"html database {size}", build)


# A region page's map, its SVG and pins (issue 38.5).
REGION_MAP_AT_MOST = 60_000


def case_html(ctx):
    """regions-top --format html vs --format ndjson: top 50, a 500-photo region's first page (30 thumbnails); 1M (200k) photos"""
    size = ctx.size(200_000) if ctx.quick else 1_000_000
    runs = ctx.repeat(10 if ctx.quick else 20)
    database = html_database(ctx, size)
    label = count_label(size)
    empty = ctx.path("empty")
    open(empty, "wb").close()

    questions = [  # row, budget's name, arguments, NDJSON lines, thumbnails on the page
        ("html top 50", "top 50", ["--limit", "50"], 50, 0),
        ("html region", "500-photo region", ["--region", bench_html.REGION_ID], bench_html.REGION_PHOTOS,
         min(HTML_PAGE_PHOTOS, bench_html.REGION_PHOTOS))]
    for case, question, arguments, lines, thumbnails in questions:
        html = [ctx.tool("regions-top"), "--db", database, *arguments, "--format", "html"]
        ndjson = [ctx.tool("regions-top"), "--db", database, *arguments, "--format", "ndjson"]
        page, listing = ctx.path("page.html"), ctx.path("page.ndjson")
        ctx.run(html, stdout=page)
        ctx.run(ndjson, stdout=listing)
        with open(page, "rb") as file:
            markup = file.read()
        images = re.findall(rb'src="data:image/jpeg;base64,([A-Za-z0-9+/=]*)"', markup)
        check(len(images) == thumbnails, f"the {question} page embeds {len(images)} thumbnails, not {thumbnails}")
        # What the page's map weighs (its SVG, the land, borders, cities and dots; issue 38.5).
        map_bytes = sum(len(figure) for figure in re.findall(rb'<figure class="map[^"]*">.*?</figure>', markup, re.S))
        check(map_bytes > 0, f"the {question} page has no map")
        log(f"   {label} photos; the {question} page's map: {map_bytes:,} bytes")
        if thumbnails:
            ctx.budget(f"html page, {question}'s map", f"at most {REGION_MAP_AT_MOST // 1000} KB",
                       f"{map_bytes / 1e3:.1f} KB", map_bytes <= REGION_MAP_AT_MOST)
        if thumbnails:
            # What moving the page's thumbnails' bytes costs: cat of a file of their size
            # less cat of an empty file.
            thumbnail_bytes = sum(len(base64.b64decode(image)) for image in images)
            log(f"   {label} photos; the region page's {thumbnails} thumbnails: {thumbnail_bytes:,} bytes")
            filler = ctx.path("thumbnail-bytes")
            with open(filler, "wb") as out:
                out.write(os.urandom(thumbnail_bytes))
            with_bytes, without = ctx.alternate(lambda: ctx.run(["cat", filler]).seconds * 1e3,
                                                lambda: ctx.run(["cat", empty]).seconds * 1e3, runs=runs, warmup=1)
            bytes_ms = max(0.0, with_bytes.median - without.median)
        with open(listing, "rb") as file:
            listed = sum(1 for _ in file)
        check(listed == lines, f"the {question} NDJSON has {listed} lines, not {lines}")
        size_text = f"{os.path.getsize(page) / 1e6:.1f} MB" if thumbnails else f"{os.path.getsize(page) / 1e3:.0f} KB"
        ours, peer = ctx.alternate(lambda: ctx.run(html).seconds * 1e3, lambda: ctx.run(ndjson).seconds * 1e3,
                                   runs=runs, warmup=1)
        ctx.add(Row(case, f"{question} page, {label} photos ({size_text})", "ms", ours,
                    "the same, --format ndjson", peer, comparison="times"))
        allowed = HTML_AT_MOST * peer.median + (bytes_ms if thumbnails else 0)
        ctx.budget(f"html page, {question} at {label}", f"under {HTML_AT_MOST}× NDJSON + thumbnails' bytes",
                   f"{ours.median:.1f} ms of {allowed:.1f} ms", ours.median < allowed)
        if thumbnails:
            ctx.add(Row("html thumbnails' bytes", f"cat of a {thumbnail_bytes / 1e3:.0f} KB file", "ms", with_bytes,
                        "cat of an empty file", without, comparison="delta"))


def case_json(ctx):
    """the same records decoded by the toolkit's parser, libjansson and Foundation, in one run (issue 16)"""
    rows, table = bench_json.run(ctx.work, quick=ctx.quick, smoke=ctx.smoke, log=log)
    by_case = {row["case"]: row for row in rows}
    for task, what in [("records", "into photo records"), ("tree", "into a JSON tree")]:
        ours = by_case[f"json toolkit {task}"]
        count = ours["records"]
        def stat(row):  # the decoder reports min, median and max of its rounds, in µs per record
            return Stat([row[key] / count * 1e6 for key in ("min_s", "median_s", "max_s")])
        for peer in ("jansson", "foundation"):
            other = by_case[f"json {peer} {task}"]
            ctx.add(Row(f"json {task}, {peer}", f"toolkit, {what}, {count_label(count)} records", "µs/record",
                        stat(ours), f"lib{peer}" if peer == "jansson" else "Foundation", stat(other)))
    for decoder in ("toolkit", "jansson", "foundation"):
        promise = by_case[f"json {decoder} guarantees"]
        log(f"   {decoder}: member order {promise['member_order']}; number text {promise['number_text']}; "
            f"syntax error {promise['syntax_error']}")
    fastest = min(("toolkit", "jansson", "foundation"), key=lambda d: by_case[f"json {d} records"]["median_s"])
    ctx.budget("json decoding", "the toolkit's parser the fastest into records", fastest, fastest == "toolkit")


# ----------------------------------------------------------------------------------------
# search: regions-top --search vs sqlite3's LIKE over title and description (issue 11)

SEARCH_CANDIDATES = ["harbour", "tripod", "belvédère", "москва", "über", "straße", "explored", "dsc"]


def case_search(ctx):
    """regions-top --search of a common and a rare word vs sqlite3 LIKE '%word%'; the index's size and ingest cost"""
    size = ctx.size(100_000) if ctx.quick else 1_000_000
    database = loaded_database(ctx, size)
    label = count_label(size)
    def hits(word):
        return sqlite_value(database, f"SELECT COUNT(*) FROM photo_fts WHERE photo_fts MATCH '\"{word}\"'")
    common_hits, common = max((hits(word), word) for word in SEARCH_CANDIDATES)
    # The rare word: the word of a region's name found in the fewest photos.
    names = [row[0] for row in sqlite_rows(database, "SELECT name FROM region")]
    words = {word.lower() for name in names for word in re.findall(r"[^\W\d_]{5,}", name)}
    found = sorted((count, word) for word in words if (count := hits(word)) > 0)
    check(bool(found) and common_hits > 0, f"search: no candidate words match at {label}")
    rare_hits, rare = found[0]
    log(f"   {label} photos; common word {common!r} ({common_hits:,} photos), rare word {rare!r} ({rare_hits:,})")
    for word, count in [(common, common_hits), (rare, rare_hits)]:
        ours = [ctx.tool("regions-top"), "--db", database, "--search", word, "--format", "ndjson"]
        like = ["sqlite3", database,
                f"SELECT * FROM photo WHERE title LIKE '%{word}%' OR description LIKE '%{word}%'"]
        check(len(ctx.run(ours).stderr) == 0, f"regions-top --search {word} said something on stderr")
        mine, peer = ctx.alternate(lambda: ctx.run(ours).seconds * 1e3, lambda: ctx.run(like).seconds * 1e3,
                                   runs=ctx.runs, warmup=1)
        ctx.add(Row(f"search {label} {'common' if count == common_hits else 'rare'}",
                    f"regions-top --search {word} ({count:,} photos)", "ms", mine,
                    "sqlite3 LIKE on title, description", peer))
    index = sqlite_value(database, "SELECT SUM(pgsize) FROM dbstat WHERE name LIKE 'photo_fts%'")
    total = sqlite_value(database, "SELECT SUM(pgsize) FROM dbstat")
    share = index / total
    ctx.add(Row(f"search {label} index", "photo_fts's pages as a share of the database", "%",
                Stat([share * 100]), "the whole database", Stat([100.0]), comparison="delta"))
    search_index_ingest_cost(ctx)


# What keeping the index costs regions-load, measured with the very binary a user runs: the
# same load into a database whose photo_fts is a view that discards what is inserted into
# it, so every index statement the writer sends still runs and finds nothing to index. The
# view still reads each photo's columns and fires an empty trigger per row (about 0.1 s per
# 200k photos), which counts against "without", so the cost measured is if anything low.
SEARCH_INDEX_INGEST_COST_AT_MOST = 0.25  # share of the records/s without the index
WITHOUT_SEARCH_INDEX = """
    DROP TABLE photo_fts;
    CREATE VIEW photo_fts (photo_fts, rowid, title, description, owner_name, region_name)
        AS SELECT NULL, NULL, NULL, NULL, NULL, NULL WHERE 0;
    CREATE TRIGGER photo_fts_discards INSTEAD OF INSERT ON photo_fts BEGIN SELECT 1; END;
"""


def search_index_ingest_cost(ctx):
    size = ctx.size(200_000) if ctx.quick else 1_000_000
    label, records = count_label(size), ctx.records(size)
    runs = 3 if size >= 1_000_000 else ctx.runs
    database = ctx.path(f"search-ingest-{label}.db")
    # The database comes with the records' first photo; the load proper finds it stored.
    first_record = write_first_record(records, ctx.path("search-ingest-first-record.ndjson"))

    def load(indexed):
        remove_database(database)
        ctx.run([ctx.tool("regions-load"), "--db", database, first_record])
        if not indexed:
            connection = sqlite3.connect(database)
            try:
                connection.executescript(WITHOUT_SEARCH_INDEX)
            finally:
                connection.close()
        run = ctx.run([ctx.tool("regions-load"), "--db", database, records])
        expect_summary(run.stderr, f"read {size}, new {size - 1}, updated 0, already stored 1")
        kind = sqlite_value(database, "SELECT type FROM sqlite_schema WHERE name = 'photo_fts'")
        indexed_rows = sqlite_value(database, "SELECT COUNT(*) FROM photo_fts_docsize") if indexed else 0
        check(kind == ("table" if indexed else "view") and indexed_rows == (size if indexed else 0),
              f"search ingest: photo_fts is a {kind} with {indexed_rows} photos indexed")
        return size / run.seconds

    with_index, without = ctx.alternate(lambda: load(True), lambda: load(False), runs=runs)
    remove_database(database)
    ctx.add(Row(f"search {label} ingest", "regions-load, new database, index kept", "records/s", with_index,
                "the same, photo_fts discarding", without, higher_is_better=True))
    cost = 1 - with_index.median / without.median
    ctx.budget(f"search index: ingest {label}", f"costs ≤ {SEARCH_INDEX_INGEST_COST_AT_MOST:.0%} of records/s",
               f"{cost:.0%}", cost <= SEARCH_INDEX_INGEST_COST_AT_MOST)


# ----------------------------------------------------------------------------------------
# serve: regions-serve against Datasette serving the same file (bin/lib/bench_serve.py)

def case_serve(ctx):
    """regions-serve vs Datasette on the same file (wrk, 16 connections): top page, a 500-photo region, a search; p99 at 1M"""
    bench_serve.case_serve(ctx, html_database, SEARCH_CANDIDATES)


# ----------------------------------------------------------------------------------------
# The registry: name -> case, in the order a run takes them.

CASES = {
    "ingest": bench_ingest.case_ingest,
    "ingest-many": bench_ingest.case_ingest_many,
    "ingest-renames": bench_renames.case_ingest_renames,
    "windows": bench_windows.case_windows,
    "query": case_query,
    "resolve": case_resolve,
    "refresh": case_refresh,
    "thumbs": case_thumbs,
    "photos": case_photos,
    "large-photo": case_large_photo,
    "startup": case_startup,
    "html": case_html,
    "json": case_json,
    "search": case_search,
    "serve": case_serve,
}


def summary(name):
    """The first line of a case's docstring: what `bin/bench --list` prints beside its name."""
    return (CASES[name].__doc__ or "").strip().split("\n")[0]
