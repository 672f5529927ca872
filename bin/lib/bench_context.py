"""What every bin/bench case is given: `ctx`, one per run.

ctx.quick and ctx.runs say how big and how often; ctx.tool(name) is a built executable;
ctx.run() and ctx.pipeline() time processes (bench_runner); ctx.path(name) is a file in
the run's work directory (removed at the end); ctx.records(n) is the deterministic file
of n photo records; ctx.add(Row) and ctx.budget() are the tables; ctx.once(key, make)
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
    rows: list = field(default_factory=list)
    budgets: list = field(default_factory=list)
    kept: dict = field(default_factory=dict)  # what one case leaves for others, by key (see once)

    @property
    def runs(self):
        """Runs per measurement: 5 in a full run, 3 with --quick."""
        return 3 if self.quick else 5

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

    def records(self, count):
        """The deterministic record file of this size, generated once per run."""
        def generate():
            path = self.path(f"records-{count_label(count)}.ndjson")
            started = time.perf_counter()
            shape = bench_records.generate(path, count, seed=SEED)
            log(f"   generated {count:,} records ({os.path.getsize(path) / 1e6:,.0f} MB, {shape['photographers']:,} "
                f"photographers, {shape['regions']} regions, {shape['places']} places) in "
                f"{time.perf_counter() - started:.1f} s")
            return path
        return self.once(f"records {count}", generate)

    @staticmethod
    def alternate(ours, peer, *, runs, warmup=0):
        """Runs ours and peer alternately (after warmup runs of each), so that a change in the
        machine's load hits both; returns both Stats."""
        for _ in range(warmup):
            ours(), peer()
        ours_samples, peer_samples = [], []
        for _ in range(runs):
            ours_samples.append(ours())
            peer_samples.append(peer())
        return Stat(ours_samples), Stat(peer_samples)
