"""The benchmark suite behind bin/bench.

bin/bench installs what is missing and builds the release binaries, then runs this with
--bin pointing at them. Every case runs the built executables as a user would, on inputs
generated here deterministically, against a "peer" measured in the same invocation (or a
computed bound), and prints one results table, a budget table, and optionally an NDJSON
copy of every row (--out).

Timing: time.perf_counter() (monotonic) around spawning a process and reaping it. Peak
resident memory: /usr/bin/time -f %M around the command. (Not this process's own wait4()
rusage: Linux carries the parent's peak RSS over to a child forked from it, so a tool
started from a 50 MB Python would never seem to use less than 50 MB.) Ours and the peer run
alternately, so a change in the machine's load during a case hits both.
"""

import argparse
import datetime
import os
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

import bench_records
from bench_fake import SEED, Fake
from bench_files import (copy_database, curl_command, cut_to_places, directory_bytes, remove_database,
                         sqlite_value, write_lines)
from bench_results import Budget, Row, Stat, count_label, report, write_ndjson
from bench_runner import BenchError, Runner, check, log

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLS = ["flickr-recent", "place-resolve", "regions-load", "regions-top", "thumb-get", "photo-cache"]

# The question, as a newcomer would ask it of our schema: count distinct photographers per
# region by scanning every photo. This is what the maintained counts are measured against.
NEWCOMER_TOP50 = (
    "SELECT r.name, COUNT(DISTINCT p.photographer) AS n FROM photo p JOIN region r ON r.id = p.region "
    "GROUP BY p.region ORDER BY n DESC, r.name LIMIT 50")
# What regions-top runs: a walk of the region_ranking partial index that stops after 50 rows.
OURS_TOP50 = (
    "SELECT place_id, name, photographers, photos FROM region WHERE photographers > 0 "
    "ORDER BY photographers DESC, sort_key, place_id LIMIT 50")


# ----------------------------------------------------------------------------------------
# The suite


@dataclass
class Bench:
    runner: Runner
    quick: bool
    rows: list = field(default_factory=list)
    budgets: list = field(default_factory=list)
    failures: list = field(default_factory=list)
    record_files: dict = field(default_factory=dict)
    kept: dict = field(default_factory=dict)  # databases one case leaves for another

    @property
    def runs(self):
        """Runs per measurement: 5 in a full run, 3 with --quick."""
        return 3 if self.quick else 5

    @property
    def work(self):
        return self.runner.work

    def path(self, name):
        return os.path.join(self.work, name)

    def add(self, row):
        self.rows.append(row)

    def records(self, count):
        """The deterministic record file of this size, generated once per invocation."""
        if count not in self.record_files:
            path = self.path(f"records-{count_label(count)}.ndjson")
            started = time.perf_counter()
            shape = bench_records.generate(path, count, seed=SEED)
            log(f"   generated {count:,} records ({os.path.getsize(path) / 1e6:,.0f} MB, {shape['photographers']:,} "
                f"photographers, {shape['regions']} regions, {shape['places']} places) in "
                f"{time.perf_counter() - started:.1f} s")
            self.record_files[count] = path
        return self.record_files[count]

    # -- 1. ingest and reload ----------------------------------------------------------------

    def ingest(self):
        sizes = [200_000] if self.quick else [200_000, 1_000_000]
        sqlite_utils = [sys.executable, "-m", "sqlite_utils"]  # not the pyenv shim: no wrapper cost
        for size in sizes:
            records = self.records(size)
            # A full run does 3 runs at 1M: one run of the four commands takes over a minute.
            runs = 3 if size >= 1_000_000 else self.runs
            ours_db, peer_db = self.path(f"ingest-ours-{count_label(size)}.db"), self.path("ingest-peer.db")
            load, reload, peer_load, peer_reload = [], [], [], []
            memory, peer_memory = [], []  # peak RSS of the first load, MB
            for run in range(runs):
                log(f"   {count_label(size)}: run {run + 1}/{runs}")
                remove_database(ours_db)
                first = self.runner.run([self.runner.tool("regions-load"), "--db", ours_db, records],
                                        peak_memory=True)
                expect_summary(first.stderr, f"read {size}, new {size}, updated 0, skipped 0")
                load.append(size / first.seconds)
                memory.append(first.peak_rss_mb)
                again = self.runner.run([self.runner.tool("regions-load"), "--db", ours_db, records])
                expect_summary(again.stderr, f"read {size}, new 0, updated 0, skipped {size}")
                reload.append(size / again.seconds)

                remove_database(peer_db)
                peer_first = self.runner.run([*sqlite_utils, "insert", peer_db, "photos", records, "--nl",
                                              "--pk", "id"], peak_memory=True)
                peer_load.append(size / peer_first.seconds)
                peer_memory.append(peer_first.peak_rss_mb)
                peer_again = self.runner.run([*sqlite_utils, "insert", peer_db, "photos", records, "--nl", "--pk", "id",
                                              "--ignore"])
                peer_reload.append(size / peer_again.seconds)
            remove_database(peer_db)
            self.kept[f"loaded-{size}"] = ours_db  # the query case reuses it
            label = count_label(size)
            self.add(Row(f"ingest {label}", "regions-load, new database", "records/s",
                         Stat(load), "sqlite-utils insert --pk id", Stat(peer_load), higher_is_better=True))
            # The peer for a reload is INSERT OR IGNORE: the cheapest command that leaves the
            # same table behind when every record is already stored (ours also checks each
            # stored photo for changes; sqlite-utils upsert would rewrite every row).
            self.add(Row(f"reload {label}", "regions-load again, all duplicates", "records/s",
                         Stat(reload), "sqlite-utils insert --ignore", Stat(peer_reload),
                         higher_is_better=True))
            self.add(Row(f"ingest {label} memory", "regions-load peak RSS", "MB", Stat(memory),
                         "sqlite-utils insert peak RSS", Stat(peer_memory), comparison="times"))
            ratio = statistics.median(load) / statistics.median(peer_load)
            self.budgets.append(Budget(f"ingest {label}: records/s vs sqlite-utils", "≥ 5×", f"{ratio:.1f}×",
                                       ratio >= 5))

    # -- 2. query --------------------------------------------------------------------------

    def query(self):
        sizes = [10_000, 100_000] if self.quick else [10_000, 100_000, 1_000_000]
        databases = {}
        for size in sizes:
            databases[size] = self.kept.get(f"loaded-{size}")  # 1M: the ingest case's database
            if databases[size] is None:
                databases[size] = self.path(f"query-{count_label(size)}.db")
                remove_database(databases[size])
                self.runner.run([self.runner.tool("regions-load"), "--db", databases[size], self.records(size)])
        log(f"   {', '.join(count_label(size) for size in sizes)} photos")
        in_process, newcomer = self.time_queries(databases)

        for size in sizes:
            label, database = count_label(size), databases[size]
            self.add(Row(f"query {label}", "top-50 query, in process", "ms", in_process[size],
                         "newcomer's SQL, in process", newcomer[size]))
            # The whole process: what a user waits for at the prompt.
            top = [self.runner.tool("regions-top"), "--db", database, "--limit", "50", "--format", "ndjson"]
            cli = ["sqlite3", database, NEWCOMER_TOP50]
            ours_process, peer_process = self.alternate(
                lambda: self.runner.run(top).seconds * 1e3, lambda: self.runner.run(cli).seconds * 1e3,
                runs=self.runs * 2, warmup=1)
            self.add(Row(f"query {label} process", "regions-top --limit 50", "ms",
                         ours_process, "sqlite3 CLI, newcomer's SQL", peer_process))

        smallest, largest = sizes[0], sizes[-1]
        growth = in_process[largest].median / in_process[smallest].median
        self.budgets.append(Budget(f"top-50 query at {count_label(largest)} vs at {count_label(smallest)}",
                                   "within 2×", f"{growth:.2f}×", growth <= 2))
        speedup = newcomer[largest].median / in_process[largest].median
        self.budgets.append(Budget(f"top-50 query at {count_label(largest)} vs newcomer's SQL", "≥ 100× faster",
                                   f"{speedup:,.0f}× faster", speedup >= 100))

    def time_queries(self, databases):
        """Both queries in process, each database on its own read-only connection (the same
        sqlite3 module for both), warm, timed from execute to the last row fetched.

        Ours takes tens of microseconds, so one sample is the mean of a batch of 20
        executions, and the sizes take turns batch by batch: a burst of load on the machine
        then lands on every size alike instead of skewing the growth between them. The
        newcomer's query runs self.runs times per size."""
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
            for _ in range(50):
                for size, connection in connections.items():
                    ours[size].append(timed(connection, OURS_TOP50, 20))
            newcomer = {size: Stat([timed(connection, NEWCOMER_TOP50, 1) for _ in range(self.runs)])
                        for size, connection in connections.items()}
            return {size: Stat(samples) for size, samples in ours.items()}, newcomer
        finally:
            for connection in connections.values():
                connection.close()

    def alternate(self, ours, peer, *, runs, warmup=0):
        """Runs ours and peer alternately (after warmup runs of each); returns both Stats."""
        for _ in range(warmup):
            ours(), peer()
        ours_samples, peer_samples = [], []
        for _ in range(runs):
            ours_samples.append(ours())
            peer_samples.append(peer())
        return Stat(ours_samples), Stat(peer_samples)

    # -- 3. resolution ---------------------------------------------------------------------

    def resolution(self):
        places = 100 if self.quick else 400
        latency = 0.100
        # A world with more places than any run needs: 129 regions × 4 localities, plus 40
        # country-level places; its 12 hours of photos cover ~480 of them.
        fake = Fake(self.runner, "resolution", "--photos", 10_000, "--regions", 129, "--places-per-region", 4,
                    "--country-places", 40)
        try:
            fetched = self.path("resolution-fetched.ndjson")
            self.runner.run([self.runner.tool("flickr-recent"), "--db", self.path("resolution-fetch.db"),
                             "--license", "any", "--quiet"], stdout=fetched, env=fake.env)
            records = self.path(f"resolution-{places}-places.ndjson")
            distinct = cut_to_places(fetched, records, places)
            if distinct < places:
                raise BenchError(f"the fake's photos cover only {distinct} places, not {places}")
            fake.set_latency(int(latency * 1000))
            log(f"   {places} places, {latency * 1000:.0f} ms latency")

            first_requests, rerun_requests = [], []
            for parallel in (1, 4, 8):
                # A full run does 3 runs at --parallel 1 (~40 s each).
                runs = 3 if parallel == 1 else self.runs
                seconds = []
                for run in range(runs):
                    log(f"   --parallel {parallel}: run {run + 1}/{runs}")
                    database = self.path("resolution.db")
                    remove_database(database)
                    command = [self.runner.tool("place-resolve"), "--db", database, "--parallel", str(parallel),
                               "--quiet", records]
                    mark = fake.mark()
                    seconds.append(self.runner.run(command, env=fake.env).seconds)
                    first_requests.append(fake.requests_since(mark)["flickr.places.getInfo"])
                    if run == 0:
                        # The same records again: every place is known now, nothing is asked.
                        mark = fake.mark()
                        self.runner.run(command, env=fake.env)
                        rerun_requests.append(sum(fake.requests_since(mark).values()))
                bound = places * latency / parallel
                row = Row(f"resolve --parallel {parallel}", f"place-resolve, {places} new places, 100 ms",
                          "s", Stat(seconds), "bound N × latency / P", Stat([bound]),
                          comparison="bound")
                self.add(row)
                self.budgets.append(Budget(f"resolution at --parallel {parallel}", "within 1.3× of the bound",
                                           f"{row.ratio:.2f}×", row.ratio <= 1.3))
            self.add(Row("resolve requests", "getInfo calls, first run", "requests", Stat(first_requests),
                         "exactly N", Stat([places]), comparison="expect"))
            self.add(Row("resolve rerun requests", "calls, same records again (once per P)", "requests",
                         Stat(rerun_requests), "none", Stat([0]), comparison="expect"))
            check(set(first_requests) == {places},
                  f"place-resolve asked {sorted(set(first_requests))} places, not {places}")
            check(set(rerun_requests) == {0}, f"place-resolve asked again on a rerun: {sorted(set(rerun_requests))}")
        finally:
            fake.stop()

    # -- 4. refresh and 5. images ------------------------------------------------------------

    def refresh_and_images(self):
        photos = 5_000
        fake = Fake(self.runner, "refresh", "--photos", photos)
        try:
            self.refresh(fake, photos)
            self.images(fake)
        finally:
            fake.stop()
        self.large_photo()

    def refresh(self, fake, photos):
        database = self.path("refresh.db")
        tools = self.runner.tool

        def pipeline(*recent_flags):
            return [[tools("flickr-recent"), "--db", database, "--license", "any", "--quiet", *recent_flags],
                    [tools("place-resolve"), "--db", database, "--quiet"],
                    [tools("regions-load"), "--db", database, "--quiet"]]
        first, second, first_requests, second_requests = [], [], [], []
        for run in range(self.runs):
            log(f"   refresh: run {run + 1}/{self.runs}")
            remove_database(database)
            mark = fake.mark()
            first.append(self.runner.pipeline(pipeline(), env=fake.env).seconds)
            first_requests.append(sum(fake.requests_since(mark).values()))
            mark = fake.mark()
            second.append(self.runner.pipeline(pipeline("--since-last"), env=fake.env).seconds)
            second_requests.append(sum(fake.requests_since(mark).values()))
        stored = sqlite_value(database, "SELECT COUNT(*) FROM photo")
        check(stored == photos, f"the refresh stored {stored} photos, not {photos}")
        self.kept["refreshed"] = database
        # No competitor here: the reference is the next refresh from cron, incremental.
        self.add(Row("refresh", f"recent | resolve | load, {photos:,} photos", "s", Stat(first),
                     "the same again, --since-last", Stat(second), comparison="times"))
        self.add(Row("refresh requests", "Flickr calls, first refresh", "requests", Stat(first_requests),
                     "the same again, --since-last", Stat(second_requests), comparison="times"))

    def images(self, fake):
        base = self.path("images-base.db")
        copy_database(self.kept["refreshed"], base)
        with sqlite3.connect(base) as connection:
            photos = connection.execute(
                "SELECT id, thumb_url, photo_url FROM photo ORDER BY uploaded DESC, id LIMIT 1000").fetchall()
        connection.close()
        check(len(photos) == 1000, f"the refreshed database has {len(photos)} photos, not 1000")
        thumb_ids = write_lines(self.path("thumb-ids.txt"), [p[0] for p in photos[:500]])
        photo_ids = write_lines(self.path("photo-ids.txt"), [p[0] for p in photos])
        # The peer: curl fetching the same URLs as fast as it can, to /dev/null, with the
        # same parallelism as the tool's default.
        thumb_curl = curl_command(self.path("thumbs.curl"), [p[1] for p in photos[:500]], parallel=4)
        photo_curl = curl_command(self.path("photos.curl"), [p[2] for p in photos], parallel=2)

        database = self.path("images.db")
        thumb_get = [self.runner.tool("thumb-get"), "--db", database]
        cold, warm, peer, cold_requests, warm_requests = [], [], [], [], []
        for run in range(self.runs):
            log(f"   thumb-get: run {run + 1}/{self.runs}")
            copy_database(base, database)
            mark = fake.mark()
            cold.append(self.runner.run(thumb_get, stdin=thumb_ids, env=fake.env).seconds)
            cold_requests.append(fake.requests_since(mark)["image"])
            mark = fake.mark()
            warm.append(self.runner.run(thumb_get, stdin=thumb_ids, env=fake.env).seconds)
            warm_requests.append(sum(fake.requests_since(mark).values()))
            peer.append(self.runner.run(thumb_curl).seconds)
        self.add(Row("thumbs cold", "thumb-get 500 photos, none stored", "s", Stat(cold),
                     "curl, same URLs, 4 at once", Stat(peer)))
        self.add(Row("thumbs warm", "thumb-get the same 500, all stored", "s", Stat(warm),
                     "thumbs cold", Stat(cold)))
        self.add(Row("thumbs requests", "image requests, cold", "requests", Stat(cold_requests), "one per photo",
                     Stat([500]), comparison="expect"))
        self.add(Row("thumbs warm requests", "requests, warm", "requests", Stat(warm_requests), "none",
                     Stat([0]), comparison="expect"))

        cache = self.path("photo-cache-evicting")
        per_photo, peer_per_photo, downloads, cache_bytes = [], [], [], []
        for run in range(self.runs):
            log(f"   photo-cache 1,000 photos: run {run + 1}/{self.runs}")
            copy_database(base, database)
            shutil.rmtree(cache, ignore_errors=True)
            mark = fake.mark()
            command = [self.runner.tool("photo-cache"), "--db", database, "--cache-dir", cache, "--max-bytes", "10M"]
            per_photo.append(self.runner.run(command, stdin=photo_ids, env=fake.env).seconds / len(photos) * 1e3)
            downloads.append(fake.requests_since(mark)["image"])
            cache_bytes.append(directory_bytes(cache))
            peer_per_photo.append(self.runner.run(photo_curl).seconds / len(photos) * 1e3)
        check(set(downloads) == {len(photos)},
              f"photo-cache downloaded {sorted(set(downloads))} photos, not {len(photos)}")
        check(max(cache_bytes) <= 10 * 1024 * 1024, f"the cache holds {max(cache_bytes):,} bytes, over 10 MB")
        self.add(Row("photo-cache evicting", "1,000 photos, 10 MB cache", "ms/photo", Stat(per_photo),
                     "curl, same URLs, 2 at once", Stat(peer_per_photo)))

    def large_photo(self):
        large = 40 * 1024 * 1024
        fake = Fake(self.runner, "large", "--photos", 200, "--large-bytes", large)
        try:
            database, cache = self.path("large.db"), self.path("photo-cache-large")
            self.runner.pipeline([
                [self.runner.tool("flickr-recent"), "--db", database, "--license", "any", "--pages", "1",
                 "--per-page", "10", "--quiet"],
                [self.runner.tool("regions-load"), "--db", database, "--quiet"]], env=fake.env)
            photo = sqlite_value(database, "SELECT id FROM photo ORDER BY id LIMIT 1")
            # A cap above the photo, so that it is kept and the second run is a cache hit.
            command = [self.runner.tool("photo-cache"), "--db", database, "--cache-dir", cache, "--max-bytes",
                       "100M", photo]
            download_rss, hit_rss = [], []
            for run in range(self.runs):
                log(f"   photo-cache 40 MB: run {run + 1}/{self.runs}")
                shutil.rmtree(cache, ignore_errors=True)
                mark = fake.mark()
                download_rss.append(self.runner.run(command, env=fake.env, peak_memory=True).peak_rss_mb)
                check(fake.requests_since(mark)["image"] == 1, "photo-cache did not download the 40 MB photo")
                check(directory_bytes(cache) >= large, "the 40 MB photo is not in the cache")
                mark = fake.mark()
                hit_rss.append(self.runner.run(command, env=fake.env, peak_memory=True).peak_rss_mb)
                check(sum(fake.requests_since(mark).values()) == 0, "the second photo-cache run downloaded again")
        finally:
            fake.stop()
        row = Row("photo-cache 40 MB", "peak RSS, one 40 MB download", "MB", Stat(download_rss),
                  "idle: same command, cache hit", Stat(hit_rss), comparison="delta")
        self.add(row)
        growth = row.ours.median - row.peer.median
        self.budgets.append(Budget("photo-cache peak memory, 40 MB photo", "within 10 MB of idle",
                                   f"{growth:+.1f} MB", growth <= 10))

    # -- 6. startup ------------------------------------------------------------------------

    def startup(self):
        """Whole-process times of tiny commands. All of them take turns, round by round, so
        that a burst of load on the machine lands on every command alike."""
        runs = 10 if self.quick else 20
        empty = self.path("empty.db")
        self.runner.run([self.runner.tool("regions-load"), "--db", empty, "--quiet"])
        commands = {"python": [sys.executable, "-c", "import sqlite3"]}
        for tool in TOOLS + ["flickr-fake"]:
            commands[tool] = [self.runner.tool(tool), "--help"]
        commands["empty query"] = [self.runner.tool("regions-top"), "--db", empty, "--limit", "50",
                                   "--format", "ndjson"]
        for argv in commands.values():
            self.runner.run(argv)  # warm-up: page cache, dynamic loader
        samples = {name: [] for name in commands}
        order = list(commands)
        for _ in range(runs):
            for name in order:
                samples[name].append(self.runner.run(commands[name]).seconds * 1e3)
            order = order[1:] + order[:1]  # rotate: no command always follows the same one

        python, python_label = Stat(samples["python"]), "python3 -c 'import sqlite3'"
        for tool in TOOLS + ["flickr-fake"]:
            self.add(Row(f"startup {tool}", f"{tool} --help", "ms", Stat(samples[tool]), python_label, python))
        self.add(Row("startup empty query", "regions-top, empty database", "ms", Stat(samples["empty query"]),
                     python_label, python))
        slowest = max(TOOLS + ["flickr-fake"], key=lambda tool: statistics.median(samples[tool]))
        slowest_median = statistics.median(samples[slowest])
        self.budgets.append(Budget("every --help, whole process", "under 20 ms",
                                   f"slowest {slowest_median:.1f} ms ({slowest})", slowest_median < 20))

    # -- the run ---------------------------------------------------------------------------

    def run_all(self):
        cases = [("ingest", self.ingest), ("query", self.query), ("resolution", self.resolution),
                 ("refresh and images", self.refresh_and_images), ("startup", self.startup)]
        for name, case in cases:
            started = time.perf_counter()
            log(f"== {name}")
            try:
                case()
            except BenchError as error:
                self.failures.append(f"{name}: {error}")
                log(f"   FAILED: {error}")
            log(f"   ({time.perf_counter() - started:.0f} s)")

    def report(self, out_path, header):
        report(self.rows, self.budgets, self.failures)
        if out_path:
            write_ndjson(out_path, header, self.rows, self.budgets, self.failures)


# ----------------------------------------------------------------------------------------
# Small helpers


def expect_summary(stderr, expected):
    """regions-load's summary line says what the run did; a benchmark of the wrong work is void."""
    check(expected in stderr, f"regions-load said {stderr.strip()!r}, expected {expected!r}")


def filesystem_type(path):
    return subprocess.run(["stat", "-f", "-c", "%T", path], capture_output=True, text=True).stdout.strip()


def git_commit(directory):
    result = subprocess.run(["git", "-C", directory, "describe", "--always", "--dirty"], capture_output=True, text=True)
    return result.stdout.strip() or None


def main():
    parser = argparse.ArgumentParser(prog="bin/bench", description="topregions benchmarks")
    parser.add_argument("--bin", required=True, help="the release bin directory")
    parser.add_argument("--quick", action="store_true", help="fewer sizes and runs (under two minutes)")
    parser.add_argument("--out", metavar="FILE", help="also write every row as NDJSON here")
    parser.add_argument("--started", type=float, help="when bin/bench started (Unix seconds), to report setup too")
    options = parser.parse_args()
    if options.out and not os.access(os.path.dirname(os.path.abspath(options.out)), os.W_OK):
        parser.error(f"cannot write {options.out}")  # say so now, not after the whole run

    work = tempfile.mkdtemp(prefix="topregions-bench.", dir=os.environ.get("TMPDIR", "/tmp"))

    def on_signal(number, _frame):
        raise KeyboardInterrupt(f"signal {number}")
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)

    started = time.perf_counter()
    try:
        filesystem = filesystem_type(work)
        header = {"table": "run", "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                  "commit": git_commit(REPOSITORY), "quick": options.quick, "host": socket.gethostname(),
                  "cpus": os.cpu_count(), "work_dir_filesystem": filesystem,
                  "load_average": os.getloadavg()[0]}
        log(f"bin/bench{' --quick' if options.quick else ''}: {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}, "
            f"work dir {work} ({filesystem})")
        if filesystem in ("tmpfs", "ramfs"):
            log("   note: the databases are on tmpfs, where fsync costs nothing: ingest against sqlite-utils "
                "(which commits every 100 rows) will look worse than on a disk. Set TMPDIR to a disk to compare.")
        bench = Bench(Runner(options.bin, work), options.quick)
        bench.run_all()
        header["seconds"] = round(time.perf_counter() - started, 1)
        bench.report(options.out, header)
        total = f", {time.time() - options.started:.0f} s with setup and build" if options.started else ""
        print(f"\n{'quick' if options.quick else 'full'} run: {time.perf_counter() - started:.0f} s{total}; "
              f"load average now {os.getloadavg()[0]:.2f}")
        return 1 if bench.failures else 0
    except KeyboardInterrupt:
        log("bin/bench: interrupted")
        return 130
    finally:
        Runner.stop_live()  # the command being measured, then the fakes
        Fake.stop_all()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
