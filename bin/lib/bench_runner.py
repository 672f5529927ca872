"""Running the tools for bin/bench: wall time, stderr, and peak resident memory.

Timing: time.perf_counter() (monotonic) around spawning a process and reaping it. Peak
resident memory: /usr/bin/time -f %M around the command. (Not this process's own wait4()
rusage: Linux carries the parent's peak RSS over to a child forked from it, so a tool
started from a 50 MB Python would never seem to use less than 50 MB.)
"""

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass

API_KEY = "bench-key"


class BenchError(Exception):
    """A case could not be measured (a command failed, a check did not hold)."""


def log(message):
    print(message, file=sys.stderr, flush=True)


def check(condition, message):
    if not condition:
        raise BenchError(message)


@dataclass
class Run:
    seconds: float
    stderr: str
    peak_rss_mb: float = None  # only when asked for (peak_memory=True)


class Runner:
    """Spawns the tools with a controlled environment; every file they touch is under work."""

    # Processes being measured, so that an interrupted run can stop them. Each runs in its
    # own process group, so that stopping it also stops what it started (/usr/bin/time's
    # child, for one).
    live = set()

    def __init__(self, bin_dir, work):
        self.bin_dir = bin_dir
        self.work = work
        # The fakes listen on 127.0.0.1: no proxy in between, and none of the caller's own
        # topregions or Flickr settings.
        self.env = {name: value for name, value in os.environ.items()
                    if not name.startswith(("TOPREGIONS_", "FLICKR_"))
                    and name.lower() not in ("http_proxy", "https_proxy", "all_proxy")}
        self.env.update({
            "NO_COLOR": "1",
            # Never the user's own database or cache, even if a command forgot --db.
            "XDG_DATA_HOME": os.path.join(work, "xdg-data"),
            "XDG_CACHE_HOME": os.path.join(work, "xdg-cache"),
            # The cases make thousands of calls to the fake; the per-hour ledger is for Flickr.
            "FLICKR_HOURLY_LIMIT": "1000000",
            "FLICKR_API_KEY": API_KEY,
        })
        self._stderr_path = os.path.join(work, "last-stderr.txt")
        self._rss_path = os.path.join(work, "last-rss.txt")

    def tool(self, name):
        return os.path.join(self.bin_dir, name)

    def run(self, argv, *, stdin=None, stdout=None, env=None, peak_memory=False):
        """Runs argv to completion; returns its wall time and stderr, and with peak_memory
        its peak RSS (through /usr/bin/time, which adds about a millisecond). stdin/stdout
        are paths (None: /dev/null). Raises BenchError unless it exits 0."""
        full_env = dict(self.env, **(env or {}))
        command = ["/usr/bin/time", "-f", "%M", "-o", self._rss_path, *argv] if peak_memory else argv
        with open(stdin or os.devnull, "rb") as input_file, \
                open(stdout or os.devnull, "wb") as output_file, \
                open(self._stderr_path, "w+b") as error_file:
            start = time.perf_counter()
            process = subprocess.Popen(command, stdin=input_file, stdout=output_file, stderr=error_file,
                                       env=full_env, start_new_session=True)
            Runner.live.add(process)
            process.wait()
            seconds = time.perf_counter() - start
            Runner.live.discard(process)
            error_file.seek(0)
            stderr = error_file.read().decode("utf-8", "replace")
        if process.returncode != 0:
            raise BenchError(f"{' '.join(map(str, argv))} exited {process.returncode}: {stderr.strip()[-800:]}")
        peak_rss_mb = None
        if peak_memory:
            with open(self._rss_path, encoding="utf-8") as rss:
                peak_rss_mb = int(rss.read().split()[-1]) / 1024  # KB, on the last line
        return Run(seconds, stderr, peak_rss_mb)

    def pipeline(self, commands, *, stdout=None, env=None):
        """Runs commands connected by pipes (like a | b | c); returns wall time. Every stage
        must exit 0."""
        full_env = dict(self.env, **(env or {}))
        with open(os.devnull, "rb") as null_in, open(stdout or os.devnull, "wb") as output_file, \
                open(self._stderr_path, "w+b") as error_file:
            start = time.perf_counter()
            processes = []
            previous = null_in
            for index, argv in enumerate(commands):
                last = index == len(commands) - 1
                process = subprocess.Popen(argv, stdin=previous, stdout=output_file if last else subprocess.PIPE,
                                           stderr=error_file, env=full_env, start_new_session=True)
                if processes:
                    processes[-1].stdout.close()  # only the next stage holds the pipe now
                processes.append(process)
                Runner.live.add(process)
                previous = process.stdout
            statuses = [process.wait() for process in processes]
            Runner.live.difference_update(processes)
            seconds = time.perf_counter() - start
            error_file.seek(0)
            stderr = error_file.read().decode("utf-8", "replace")
        if any(statuses):
            raise BenchError(f"pipeline {' | '.join(c[0].rsplit('/', 1)[-1] for c in commands)} exited "
                             f"{statuses}: {stderr.strip()[-800:]}")
        return Run(seconds, stderr)

    @classmethod
    def stop_live(cls):
        """Kills whatever is being measured (an interrupted run), with what it started."""
        for process in list(cls.live):
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
