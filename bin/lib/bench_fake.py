"""The offline Flickr for bin/bench: a flickr-fake process on a free port, with its request log."""

import json
import os
import subprocess
import threading
import time
import urllib.request
from collections import Counter

from bench_runner import API_KEY, BenchError

SEED = 2013  # the fakes' worlds and the generated records: the same in every run


class Fake:
    """A flickr-fake process on a free port, with its request log."""

    running = []  # every fake started, so that cleanup can stop them all

    def __init__(self, runner, name, *flags):
        self.log_path = os.path.join(runner.work, f"fake-{name}.ndjson")
        argv = [runner.tool("flickr-fake"), "--port", "0", "--seed", str(SEED), "--api-key", API_KEY,
                "--log", self.log_path, *map(str, flags)]
        self.process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=runner.env)
        Fake.running.append(self)
        # The first stdout line is the base URL. The pipe stays open (and drained) while the
        # fake runs, as bin/demo keeps its FIFO open: closing it could kill the fake on SIGPIPE.
        self.base = self.process.stdout.readline().decode().strip()
        if not self.base.startswith("http"):
            raise BenchError(f"flickr-fake {' '.join(map(str, flags))} did not start (printed {self.base!r})")
        threading.Thread(target=self.process.stdout.read, daemon=True).start()
        self.env = {"FLICKR_API_BASE": self.base + "/services/rest/"}

    def set_latency(self, milliseconds):
        """Replaces the fault settings: every response is delayed this long."""
        request = urllib.request.Request(f"{self.base}/_fake/faults?latency_ms={milliseconds}", method="POST")
        direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # never via a proxy
        with direct.open(request, timeout=10) as response:
            response.read()

    def mark(self):
        """A position in the request log; requests_since(mark) counts what came after."""
        return os.path.getsize(self.log_path) if os.path.exists(self.log_path) else 0

    def requests_since(self, mark):
        """Requests answered since mark, by REST method or "image". The fake writes a line
        as each response completes, which can trail the client's exit by a moment: read
        until the count stops changing."""
        previous = None
        while True:
            with open(self.log_path, "rb") as log_file:
                log_file.seek(mark)
                counts = Counter()
                for line in log_file:
                    if not line.endswith(b"\n"):
                        break  # a line still being written; the next read gets it whole
                    entry = json.loads(line)
                    counts[entry.get("method") or entry.get("kind", "?")] += 1
            if counts == previous:
                return counts
            previous = counts
            time.sleep(0.02)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self in Fake.running:
            Fake.running.remove(self)

    @classmethod
    def stop_all(cls):
        for fake in list(cls.running):
            fake.stop()
