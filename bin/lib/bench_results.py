"""bin/bench's results: samples, the rows of the results and budget tables, and how they print.

A case adds Rows (ours against a peer, measured in the same run, or against a computed
bound) and Budgets (a target and whether it was met) to its context; at the end of the run
report() prints both tables and write_ndjson() copies every row for --out.
"""

import json
import statistics
from dataclasses import dataclass


@dataclass
class Stat:
    samples: list

    @property
    def median(self):
        return statistics.median(self.samples)

    @property
    def min(self):
        return min(self.samples)

    @property
    def max(self):
        return max(self.samples)


@dataclass
class Row:
    case: str
    measured: str
    unit: str
    ours: Stat
    peer_label: str = ""
    peer: Stat = None
    # How the peer column reads: "faster" (ours vs a competitor, either direction), "times"
    # (ours as a multiple of a reference that is not a competitor), "bound" (ours as a
    # multiple of a computed bound), "delta" (ours minus peer), "expect" (must be equal).
    comparison: str = "faster"
    higher_is_better: bool = False

    @property
    def ratio(self):
        if self.peer is None or self.peer.median == 0:
            return None
        return self.ours.median / self.peer.median

    def versus(self):
        if self.peer is None:
            return ""
        if self.comparison == "expect":
            every_run_as_expected = set(self.ours.samples) == {self.peer.median}
            return "as expected" if every_run_as_expected else "NOT AS EXPECTED"
        if self.comparison == "delta":
            return f"{self.ours.median - self.peer.median:+.1f} {self.unit}"
        if self.ratio is None:
            return ""
        if self.comparison == "bound":
            return f"{self.ratio:.2f}× the bound"
        if self.comparison == "times":
            return f"{format_ratio(self.ratio)} the peer"
        speedup = self.ratio if self.higher_is_better else 1 / self.ratio
        if speedup >= 1:
            return f"{format_ratio(speedup)} faster"
        return f"{format_ratio(1 / speedup)} slower"

    def to_json(self):
        def stat(s):
            return None if s is None else {"median": s.median, "min": s.min, "max": s.max, "samples": s.samples}
        return {"table": "results", "case": self.case, "measured": self.measured, "unit": self.unit,
                "runs": len(self.ours.samples), **stat(self.ours), "peer": self.peer_label or None,
                "peer_stats": stat(self.peer), "comparison": self.comparison,
                "higher_is_better": self.higher_is_better, "ratio": self.ratio, "vs_peer": self.versus()}


@dataclass
class Budget:
    name: str
    target: str
    measured: str
    met: bool

    def to_json(self):
        return {"table": "budget", "budget": self.name, "target": self.target, "measured": self.measured,
                "met": self.met}


def format_number(value, unit):
    """Counts and rates whole, with separators; anything else to about 3 significant digits."""
    if unit in ("requests", "records/s"):
        return f"{value:,.0f}"
    if value == 0:
        return "0"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    if abs(value) >= 1:
        return f"{value:.2f}"
    return f"{value:.3g}"


def format_ratio(ratio):
    return f"{ratio:,.0f}×" if ratio >= 100 else f"{ratio:.1f}×"


def render_table(headers, rows, right_aligned):
    widths = [max(len(str(h)), *(len(str(r[i])) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]

    def line(cells):
        return "  ".join(str(c).rjust(w) if i in right_aligned else str(c).ljust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()
    return "\n".join([line(headers), line("-" * w for w in widths), *(line(r) for r in rows)])


RESULTS_NOTE = (
    "Wall times (lower is better) or rates (higher is better); \"process\", startup and html rows time whole\n"
    "processes, spawn to exit. \"runs\" counts ours; the peer ran as often, except the newcomer's query in\n"
    "process (3 or 5 runs; ours: 50 samples, each the mean of 20 executions). \"vs peer\" compares medians.")


SMOKE_NOTE = (
    "A smoke run (bin/bench --smoke): every case at a tiny size, once, on whatever build it was given (bin/test's:\n"
    "the release program its tests ran). It proves each case still does its work and its checks; its figures and budgets mean nothing.")


def report(rows, budgets, failures, smoke=False):
    """Prints the results table, the budget table and what could not be measured."""
    result_headers = ["case", "measured", "runs", "median", "min", "max", "unit", "peer", "peer median", "vs peer"]
    result_rows = [[r.case, r.measured, len(r.ours.samples), format_number(r.ours.median, r.unit),
                    format_number(r.ours.min, r.unit), format_number(r.ours.max, r.unit), r.unit,
                    r.peer_label, "" if r.peer is None else format_number(r.peer.median, r.unit), r.versus()]
                   for r in rows]
    budget_rows = [[b.name, b.target, b.measured, "yes" if b.met else "NO"] for b in budgets]
    print()
    print(render_table(result_headers, result_rows, right_aligned={2, 3, 4, 5, 8}))
    print(RESULTS_NOTE)
    print()
    print(render_table(["budget", "target", "measured", "met?"], budget_rows, right_aligned={2}))
    if smoke:
        print(SMOKE_NOTE)
    for failure in failures:
        print(f"FAILED {failure}")


def write_ndjson(path, header, rows, budgets, failures):
    """--out: the run's header, then every result row, budget and failure, one JSON object a line."""
    with open(path, "w", encoding="utf-8") as out:
        for entry in [header, *(r.to_json() for r in rows), *(b.to_json() for b in budgets),
                      *({"table": "failure", "failure": f} for f in failures)]:
            out.write(json.dumps(entry, ensure_ascii=False) + "\n")


def count_label(n):
    """200000 -> '200k', 1000000 -> '1M'."""
    if n >= 1_000_000 and n % 1_000_000 == 0:
        return f"{n // 1_000_000}M"
    if n >= 1_000 and n % 1_000 == 0:
        return f"{n // 1_000}k"
    return str(n)
