"""What every bin/bench case is given: `ctx`, one per run.

ctx.quick and ctx.runs say how big and how often; ctx.smoke (bin/bench --smoke, which also
sets ctx.quick) asks for every case at a tiny size, once, to prove that it still works:
sizes go through ctx.size(n) and counts of runs or rounds through ctx.repeat(n), which
return n in a full or --quick run. ctx.tool(name) is a built executable;
ctx.run() and ctx.pipeline() time processes (bench_runner); ctx.path(name) is a file in
the run's work directory (removed at the end); ctx.records(n) is the deterministic file
of n photo records (ctx.following_records(n): the 20k that come after them); ctx.add(Row)
and ctx.budget() are the tables; ctx.once(key, make)
shares what one case builds with another (a database, a fake) whichever of them runs
first, so that each case can also run alone.
"""

import os
import time
from dataclasses import dataclass, field

import bench_records
from bench_fake import SEED
from bench_results import Budget, Stat, count_label
from bench_runner import Runner, log


@dataclass
class Context:
    runner: Runner
    quick: bool
    smoke: bool = False  # bin/bench --smoke: every case tiny, once; the budgets for shape only
    rows: list = field(default_factory=list)
    budgets: list = field(default_factory=list)
    kept: dict = field(default_factory=dict)  # what one case leaves for others, by key (see once)

    @property
    def runs(self):
        """Runs per measurement: 5 in a full run, 3 with --quick, 1 with --smoke."""
        return 1 if self.smoke else 3 if self.quick else 5

    # A smoke run's sizes: a hundredth of a full or quick run's, at least this many.
    SMOKE_DIVISOR = 100
    SMOKE_AT_LEAST = 100

    def size(self, n, smoke=None):
        """How big something is (records, photos, places, bytes, seconds of load): n, what a
        full or --quick run uses; in a smoke run `smoke` when given, else n / 100 (at least
        100): 200k records become 2,000, 1M 10,000, 20k 200."""
        if not self.smoke:
            return n
        return smoke if smoke is not None else max(self.SMOKE_AT_LEAST, n // self.SMOKE_DIVISOR)

    def repeat(self, n, smoke=1):
        """How many times something is done (runs, rounds, batches): n in a full or --quick
        run, `smoke` (once) in a smoke run."""
        return smoke if self.smoke else n

    def warmup(self, n=1):
        """Warm-up runs: n, none in a smoke run (which times nothing worth warming for)."""
        return self.repeat(n, smoke=0)

    @property
    def work(self):
        return self.runner.work

    def path(self, name):
        return os.path.join(self.work, name)

    def tool(self, name):
        return self.runner.tool(name)

    def run(self, argv, **options):
        """bench_runner.Runner.run: one process, timed; BenchError unless it exits 0."""
        return self.runner.run(argv, **options)

    def pipeline(self, commands, **options):
        return self.runner.pipeline(commands, **options)

    def add(self, row):
        self.rows.append(row)

    def budget(self, name, target, measured, met):
        self.budgets.append(Budget(name, target, measured, met))

    def once(self, key, make):
        """What make() returned the first time any case asked for key in this run."""
        if key not in self.kept:
            self.kept[key] = make()
        return self.kept[key]

    FOLLOWING = 20_000

    @property
    def following(self):
        """How many records following_records() holds: FOLLOWING, a refresh's worth."""
        return self.size(self.FOLLOWING)

    def records(self, count, shape="bench"):
        """The deterministic record file of this size and shape (bench_records.SHAPES),
        generated once per run."""
        return self._generated(count, shape)[0]

    def following_records(self, count, shape="bench"):
        """ctx.following records newer than records(count, shape)'s, of the same world (its
        photographers and new ones): what a later refresh brings to that database."""
        return self._generated(count, shape)[1]

    def _generated(self, count, shape):
        def generate():
            name = f"records-{count_label(count)}{'' if shape == 'bench' else '-' + shape}"
            path, following = self.path(f"{name}.ndjson"), self.path(f"{name}-next-{count_label(self.following)}.ndjson")
            started = time.perf_counter()
            made = bench_records.generate(path, count, seed=SEED, shape=shape, following_path=following,
                                          following=self.following)
            log(f"   generated {count:,} records, {shape} shape ({os.path.getsize(path) / 1e6:,.1f} MB, "
                f"{made['photographers']:,} photographers, {made['regions']} regions, {made['places']} places), "
                f"and {self.following:,} following, in {time.perf_counter() - started:.1f} s")
            return path, following
        return self.once(f"records {count} {shape}", generate)

    def alternate(self, ours, peer, *, runs, warmup=0):
        """Runs ours and peer alternately (after warmup runs of each, none in a smoke run), so
        that a change in the machine's load hits both; returns both Stats."""
        for _ in range(self.warmup(warmup)):
            ours(), peer()
        ours_samples, peer_samples = [], []
        for _ in range(runs):
            ours_samples.append(ours())
            peer_samples.append(peer())
        return Stat(ours_samples), Stat(peer_samples)
