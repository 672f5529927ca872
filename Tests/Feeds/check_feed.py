#!/usr/bin/env python3
"""Checks Atom feeds with tools nobody here wrote: Python's feedparser (no bozo, every entry's
id, link and date as expected) and xmllint --relaxng with the RELAX NG schema of RFC 4287's
Appendix B (Tests/Feeds/atom.rnc, converted to RELAX NG's XML syntax with rnc2rng). Run by
the end-to-end tests (bin/test installs feedparser, rnc2rng and xmllint); by hand:

    python3 Tests/Feeds/check_feed.py EXPECT.json

EXPECT.json: {"feeds": [{"file": PATH, "title": TEXT IN THE TITLE,
                         "entries": [{"id": ..., "link": ..., "updated": "2025-11-22T08:21:51Z"}, ...]}]}
Every entry is checked, in order. Before the feeds, a feed without its id is shown to fail the
schema, so a schema that accepts anything cannot pass. Exit status 0 when every check passed.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

import feedparser
import rnc2rng

HERE = os.path.dirname(os.path.abspath(__file__))
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL " + message)


def schema(directory):
    """RFC 4287's schema in RELAX NG's XML syntax, for xmllint."""
    with open(os.path.join(HERE, "atom.rnc"), encoding="utf-8") as source:
        rng = rnc2rng.dumps(rnc2rng.loads(source.read()))
    # rnc2rng declares the empty "local" namespace as a prefix, which XML namespaces forbid;
    # the schema names it by ns="" where it is used.
    rng = rng.replace(' xmlns:local=""', "").replace('xmlns:local=""', "")
    path = os.path.join(directory, "atom.rng")
    with open(path, "w", encoding="utf-8") as out:
        out.write(rng)
    return path


def valid(rng, feed):
    run = subprocess.run(["xmllint", "--noout", "--relaxng", rng, feed], capture_output=True, text=True)
    return run.returncode == 0, run.stderr.strip()


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        expect = json.load(f)
    with tempfile.TemporaryDirectory() as work:
        rng = schema(work)
        broken = os.path.join(work, "broken.atom")
        with open(broken, "w", encoding="utf-8") as f:
            f.write('<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">'
                    "<title>No id</title><updated>2025-11-22T08:21:51Z</updated></feed>\n")
        check(not valid(rng, broken)[0], "the schema accepts a feed without its id")
        for feed in expect["feeds"]:
            name = os.path.basename(feed["file"])
            ok, why = valid(rng, feed["file"])
            check(ok, "%s does not validate against RFC 4287's schema: %s" % (name, why))
            parsed = feedparser.parse(feed["file"])
            check(not parsed.bozo, "%s: feedparser: %s" % (name, parsed.get("bozo_exception")))
            check(parsed.version == "atom10", "%s is %r to feedparser, not Atom 1.0" % (name, parsed.version))
            check(feed["title"] in parsed.feed.get("title", ""), "%s: title %r" % (name, parsed.feed.get("title")))
            entries = [{"id": e.get("id"), "link": e.get("link"),
                        "updated": time.strftime("%Y-%m-%dT%H:%M:%SZ", e.updated_parsed) if e.get("updated_parsed") else None}
                       for e in parsed.entries]
            check(entries == feed["entries"], "%s: entries %s, expected %s" % (name, entries[:3], feed["entries"][:3]))
    if failures:
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
