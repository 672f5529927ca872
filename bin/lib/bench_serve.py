"""bin/bench's serve case: regions-serve against Datasette serving the same database file,
both loaded by the same load generator (wrk: 16 connections, keep-alive, 2 threads).

The three questions, each side's own page for it:
- the top regions: ours `/`; Datasette's region table sorted by photographers
  (`/db/region?_sort_desc=photographers`);
- a region's photos (the bench's 500-photo region): ours `/regions/BENCH500` (its first 30,
  the count and the map of all 500); Datasette's photo table filtered on the region (its
  first 100 rows);
- a search of a common word: ours `/search?q=WORD`; Datasette's `?_search=WORD` on the photo
  table (its full-text search over the same FTS5 index).

Then the same server's pages while regions-load loads 200k new photos into its database (a
cron refresh beside people browsing): the p99 of a mix of pages (top, region, All, search,
photo pages, which record views) during the load against the p99 of the same mix without it,
for browsing clients (32 connections, each pausing 40 ms after an answer: the budget) and for
a client asking flat out (reported).

Then, at 1M photos (not with --quick): the 99th percentile of ours for the top page and for
random pages of the region closest to 15,000 photos, and the server's RSS after all of it
(tens of thousands of requests).
"""

import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.request

import bench_html
from bench_files import copy_database, remove_database, sqlite_rows, sqlite_value
from bench_results import Row, Stat, count_label
from bench_runner import BenchError, Runner, check, log

SERVE_AT_LEAST = 20  # × Datasette's requests/s, each question
SERVE_P99_AT_MOST_MS = 20  # at 1M photos: the top page, any page of a 15,000-photo region
SERVE_RSS_AT_MOST_MB = 64  # after 10,000 requests and more
SERVE_UNDER_LOAD_AT_MOST = 3  # × the p99 of the same pages without a concurrent load
CONNECTIONS = 16


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(url, seconds=120):
    """Until url answers 200 (a server starting up)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=30) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise BenchError(f"{url} did not answer within {seconds} s")
        time.sleep(0.1)


class Server:
    """A server process for the case, stopped (SIGTERM, then waited for) at the end."""

    def __init__(self, argv, env=None, url=None):
        # Only regions-serve's first line is read: Datasette, told its port, logs every request
        # on stdout, which would block it once a pipe nobody reads is full.
        self.process = subprocess.Popen(argv, stdout=subprocess.DEVNULL if url else subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        env=dict(os.environ, **(env or {})), start_new_session=True)
        Runner.live.add(self.process)
        # regions-serve prints its address first; Datasette is told its port.
        self.url = (url or self.process.stdout.readline().decode().strip()).rstrip("/")
        check(self.url.startswith("http://"), f"{argv[0]} printed no address")

    def rss_mb(self, field="VmRSS"):
        """The process's resident memory now (VmRSS), or at its peak so far (VmHWM)."""
        with open(f"/proc/{self.process.pid}/status", encoding="utf-8") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=60)
        Runner.live.discard(self.process)


def wrk_argv(url, seconds, script=None, connections=CONNECTIONS):
    argv = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "--timeout", "300s"]
    return argv + (["-s", script] if script else []) + [url]


def wrk(url, seconds, script=None, connections=CONNECTIONS):
    """(requests/s, p50 ms, p99 ms, requests, non-2xx) of wrk loading url (in a session of its
    own, as every process the bench starts: see wrk_while)."""
    return wrk_results(subprocess.run(wrk_argv(url, seconds, script, connections), capture_output=True, text=True, check=True,
                                      start_new_session=True).stdout, url)


def wrk_while(ctx, url, script, command, connections=CONNECTIONS):
    """wrk_results of wrk loading url for as long as command runs (through ctx.run, as every
    tool the bench times; wrk stops on SIGINT and prints what it measured), and command's
    seconds.

    wrk and the command each in a session of its own, as a browser and a cron job are, and
    as the server is: Linux's autogroup scheduling shares the CPU between sessions first, so
    a client in the load's session got that session's share of the core the load left, and
    the bench measured the client waiting for the CPU (runnable and not run for 76 ms while
    the server computed a list: docs/PERFORMANCE.md, "Where a page's worst answers beside a
    load go")."""
    loading = subprocess.Popen(wrk_argv(url, 600, script, connections), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                               start_new_session=True)
    Runner.live.add(loading)
    try:
        time.sleep(0.5)  # wrk's connections open before the command starts
        seconds = ctx.run(command).seconds
        loading.send_signal(signal.SIGINT)
        out = loading.communicate(timeout=300)[0]
    finally:
        Runner.live.discard(loading)
    return wrk_results(out, url), seconds


def wrk_results(out, url):
    def millis(label):
        match = re.search(rf"^\s+{label}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
        if not match:
            raise BenchError(f"wrk printed no {label}th percentile for {url}:\n{out}")
        value, unit = float(match.group(1)), match.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return rate, millis("50"), millis("99"), requests, int(errors.group(1)) if errors else 0


def search_word(database, candidates):
    """The candidate word most photos match: a common word."""
    def hits(word):
        return sqlite_value(database, f"SELECT COUNT(*) FROM photo_fts WHERE photo_fts MATCH '\"{word}\"'")
    count, word = max((hits(word), word) for word in candidates)
    check(count > 0, "serve: no candidate search word matches")
    return word, count


def case_serve(ctx, html_database, search_candidates):
    """regions-serve vs Datasette on the same file (wrk, 16 connections): top page, a 500-photo region, a search; p99 at 1M"""
    size = ctx.size(200_000)
    database = html_database(ctx, size)
    label = count_label(size)
    seconds = ctx.size(5 if ctx.quick else 10, smoke=1)
    word, matches = search_word(database, search_candidates)
    region_rowid = sqlite_value(database, f"SELECT id FROM region WHERE place_id = '{bench_html.REGION_ID}'")
    log(f"   {label} photos; search word {word!r} ({matches:,} photos)")

    ours = Server([ctx.tool("regions-serve"), "--db", database, "--port", "0", "-q", "--cache-dir", ctx.path("serve-cache")])
    port = free_port()
    name = os.path.splitext(os.path.basename(database))[0]
    theirs = Server(["datasette", "serve", database, "-h", "127.0.0.1", "-p", str(port), "--setting", "sql_time_limit_ms", "120000",
                     "--setting", "facet_time_limit_ms", "1"], url=f"http://127.0.0.1:{port}")
    try:
        wait_for(theirs.url + f"/{name}/region.json")
        questions = [  # case, what, our path, their path
            ("serve top", "top regions page", "/", f"/{name}/region?_sort_desc=photographers"),
            ("serve region", "500-photo region, first page", f"/regions/{bench_html.REGION_ID}",
             f"/{name}/photo?region={region_rowid}"),
            ("serve search", f"search of {word!r} ({matches:,} photos)", f"/search?q={word}", f"/{name}/photo?_search={word}"),
        ]
        for case, what, our_path, their_path in questions:
            single = {}
            for url in (ours.url + our_path, theirs.url + their_path):
                started = time.perf_counter()
                with urllib.request.urlopen(url, timeout=300) as answer:  # each answers, once, before the load
                    check(answer.status == 200, f"{url} answered {answer.status}")
                    answer.read()
                single[url] = time.perf_counter() - started
            # A side that takes seconds a request is loaded long enough for each of the 16
            # connections to be answered a few times (a search takes Datasette seconds), in a
            # smoke run too, up to 15 s: loaded for its 1 s, Datasette's search on a slow
            # machine finished no request, and the case failed for want of an answer.
            def duration(url):
                return int(min(max(seconds, single[url] * CONNECTIONS * 3), ctx.size(180, smoke=15)))
            mine, peer = [], []
            for _ in range(ctx.repeat(1 if ctx.quick else 2)):
                mine.append(wrk(ours.url + our_path, duration(ours.url + our_path)))
                peer.append(wrk(theirs.url + their_path, duration(theirs.url + their_path)))
            for run in mine + peer:
                check(run[4] == 0, f"{case}: {run[4]} answers were not 2xx")
            ctx.add(Row(case, f"{what}, {label} photos", "req/s", Stat([run[0] for run in mine]),
                        f"Datasette {their_path.split('?')[0].split('/')[-1]} table page", Stat([run[0] for run in peer]),
                        higher_is_better=True))
            ctx.add(Row(case + " p50/p99", f"{what}: p50 {max(r[1] for r in mine):.1f} ms, p99 {max(r[2] for r in mine):.1f} ms",
                        "ms", Stat([run[2] for run in mine]), "Datasette p99", Stat([run[2] for run in peer])))
            check(min(r[0] for r in peer) > 0, f"{case}: Datasette answered no request under the load")
            ratio = min(r[0] for r in mine) / max(r[0] for r in peer)
            ctx.budget(f"serve {what}", f"≥ {SERVE_AT_LEAST}× Datasette's requests/s", f"{ratio:,.0f}×", ratio >= SERVE_AT_LEAST)
        searches_rss = broad_searches(ctx, ours, word, matches)
    finally:
        theirs.stop()
        rss = ours.rss_mb()
        ours.stop()
    ctx.budget(f"serve peak RSS after {searches_rss[0]} broad searches", f"under {SERVE_RSS_AT_MOST_MB} MB",
               f"{searches_rss[1]:.0f} MB", searches_rss[1] < SERVE_RSS_AT_MOST_MB)
    serve_beside_a_load(ctx, database, size, word)
    if ctx.quick:
        return

    big = html_database(ctx, 1_000_000)
    target = sqlite_rows(big, "SELECT place_id, photos FROM region ORDER BY abs(photos - 15000) LIMIT 1")[0]
    region, photos = target[0], int(target[1])
    pages = (photos + 29) // 30
    script = ctx.path("random-page.lua")
    with open(script, "w", encoding="utf-8") as lua:
        lua.write(f'math.randomseed(7)\nrequest = function()\n  return wrk.format(nil, "/regions/{region}?page=" .. math.random(1, {pages}))\nend\n')
    server = Server([ctx.tool("regions-serve"), "--db", big, "--port", "0", "-q", "--cache-dir", ctx.path("serve-cache")])
    try:
        top = [wrk(server.url + "/", seconds) for _ in range(2)]
        paged = [wrk(server.url + "/", seconds, script=script) for _ in range(2)]
        for run in top + paged:
            check(run[4] == 0, f"serve 1M: {run[4]} answers were not 2xx")
        requests = sum(run[3] for run in top + paged)
        rss = max(rss, server.rss_mb())
    finally:
        server.stop()
    worst_top, worst_page = max(r[2] for r in top), max(r[2] for r in paged)
    ctx.add(Row("serve 1M top p99", "top regions page, 1M photos, 16 connections", "ms", Stat([r[2] for r in top])))
    ctx.add(Row("serve 1M region p99", f"random pages of a {photos:,}-photo region, 1M photos", "ms", Stat([r[2] for r in paged])))
    ctx.budget("serve p99 at 1M: top page", f"under {SERVE_P99_AT_MOST_MS} ms", f"{worst_top:.1f} ms", worst_top < SERVE_P99_AT_MOST_MS)
    ctx.budget(f"serve p99 at 1M: any page of a {photos:,}-photo region", f"under {SERVE_P99_AT_MOST_MS} ms",
               f"{worst_page:.1f} ms", worst_page < SERVE_P99_AT_MOST_MS)
    ctx.budget(f"serve RSS after {requests:,} requests", f"under {SERVE_RSS_AT_MOST_MB} MB", f"{rss:.0f} MB",
               rss < SERVE_RSS_AT_MOST_MB)


def broad_searches(ctx, server, word, matches):
    """(searches, peak RSS MB): distinct searches each matching at least `word`'s photos
    (`word OR zzN`), as plain GETs, one after another: each list's matches are kept for its
    next pages, within the server's bounded cache (issue 35, item 5: 200 such searches took
    a server from 45 MB to 490 MB)."""
    searches = ctx.size(450, smoke=20)
    for n in range(searches):
        with urllib.request.urlopen(f"{server.url}/search?q={word}+OR+zz{n}", timeout=300) as answer:
            check(answer.status == 200, f"a broad search answered {answer.status}")
            answer.read()
    peak = server.rss_mb("VmHWM")
    ctx.add(Row("serve broad searches RSS", f"peak RSS after {searches} distinct searches of {matches:,}+ photos each", "MB",
                Stat([peak])))
    return searches, peak


def shifted_records(source, destination, offset):
    """source's records under new ids (each id plus offset): new photos for a database that
    holds source's."""
    with open(source, encoding="utf-8") as records, open(destination, "w", encoding="utf-8") as out:
        for line in records:
            record = json.loads(line)
            record["id"] = str(int(record["id"]) + offset)
            out.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")


class Client:
    """How wrk asks for the mix of pages beside a load: `connections`, each waiting `pause_ms`
    between an answer and its next request (0: flat out)."""

    def __init__(self, name, connections, pause_ms):
        self.name, self.connections, self.pause_ms = name, connections, pause_ms

    @property
    def label(self):
        pace = f"each {self.pause_ms} ms between answer and request" if self.pause_ms else "flat out"
        return f"{self.connections} connections, {pace}"


# People browsing: 32 connections (the "32 browsing clients"), each asking again 40 ms
# after an answer: about 750 requests/s of the mix, a quarter of what the server answers flat
# out on two cores. The budget's client.
BROWSING = Client("browsing", 32, 40)
# The same pages asked for flat out, as the other serve rows ask: the client keeps the machine's
# two cores busy, so what it measures beside a load is mostly its share of them (reported, not
# budgeted: docs/PERFORMANCE.md, "A cron load's session at a lower weight").
FLAT_OUT = Client("flat out", CONNECTIONS, 0)


def serve_beside_a_load(ctx, database, size, word):
    """The p99 of a mix of pages while regions-load loads `size` (200k) new photos into the
    served database (which holds as many and the 500-photo region), against the p99 of the
    same mix without it, alternately; for browsing clients (the budget) and flat out."""
    for client in (BROWSING, FLAT_OUT):
        quiet, loaded, load_seconds = beside_a_load_rounds(ctx, database, size, word, client)
        ctx.add(Row(f"serve beside load p99, {client.name}",
                    f"pages (top, region, All, search, Recents, photo pages) while {count_label(size)} photos load "
                    f"({joined_seconds(load_seconds)} s), {client.label}", "ms", Stat([r[2] for r in loaded]),
                    "the same pages, no load", Stat([r[2] for r in quiet])))
        if client is BROWSING:
            ratio = max(r[2] for r in loaded) / max(min(r[2] for r in quiet), 0.001)
            ctx.budget(f"serve p99 beside a {count_label(size)} load ({client.name})", f"within {SERVE_UNDER_LOAD_AT_MOST}× the p99 without it",
                       f"{ratio:.1f}×", ratio <= SERVE_UNDER_LOAD_AT_MOST)


def beside_a_load_rounds(ctx, database, size, word, client):
    """(quiet runs, runs beside a load, the loads' seconds) of `client` asking for the mix, on
    a fresh copy of `database`, round after round (each load adding `size` photos)."""
    served = ctx.path("serve-beside-load.db")
    remove_database(served)
    copy_database(database, served)
    photos = [row[0] for row in sqlite_rows(served, "SELECT id FROM photo ORDER BY rowid LIMIT 40")]
    paths = ["/", f"/regions/{bench_html.REGION_ID}", "/all", f"/search?q={word}", "/recents"] + [f"/photos/{id}" for id in photos]
    script = ctx.path("mixed-pages.lua")
    with open(script, "w", encoding="utf-8") as lua:
        lua.write("paths = {" + ", ".join(f'"{path}"' for path in paths) + "}\ncounter = 0\n"
                  "request = function()\n  counter = counter + 1\n"
                  "  return wrk.format(nil, paths[(counter % #paths) + 1])\nend\n")
        if client.pause_ms:
            lua.write(f"delay = function() return {client.pause_ms} end\n")
    rounds = ctx.repeat(1 if ctx.quick else 2)
    cache = ctx.path("serve-cache")
    shutil.rmtree(cache, ignore_errors=True)
    server = Server([ctx.tool("regions-serve"), "--db", served, "--port", "0", "-q", "--cache-dir", cache])
    quiet, loaded, load_seconds = [], [], []
    try:
        for round in range(rounds):
            batch = ctx.path(f"serve-load-{round}.ndjson")
            shifted_records(ctx.records(size), batch, (round + 1) * 10_000_000_000)
            # The same mix without a load (each page asked once first, as a person's first
            # visit computes what later ones reuse), then for as long as a load takes.
            for path in paths:
                with urllib.request.urlopen(server.url + path, timeout=300) as answer:
                    answer.read()
            quiet.append(wrk(server.url + "/", ctx.size(5 if ctx.quick else 10, smoke=1), script=script, connections=client.connections))
            during, seconds = wrk_while(ctx, server.url + "/", script, [ctx.tool("regions-load"), "-q", "--db", served, batch],
                                        connections=client.connections)
            loaded.append(during)
            load_seconds.append(seconds)
            os.remove(batch)
        stored = sqlite_value(served, "SELECT COUNT(*) FROM photo")
        check(stored == size + bench_html.REGION_PHOTOS + rounds * size, f"serve beside a load: {stored} photos stored")
        for run in quiet + loaded:
            check(run[4] == 0, f"serve beside a load: {run[4]} answers were not 2xx")
    finally:
        server.stop()
    return quiet, loaded, load_seconds


def joined_seconds(values):
    return "/".join(f"{value:.1f}" for value in values)
