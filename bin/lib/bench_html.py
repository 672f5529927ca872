#!/usr/bin/env python3
"""A database for timing `regions-top --format html` (issue 10, item 5), and the timing.

    bin/lib/bench_html.py make DB --bin .build/release [--records 1000000]
    bin/lib/bench_html.py time DB --bin .build/release [--runs 20]

`make` loads `--records` photos from bin/lib/bench_records.py (the records bin/bench
ingests) into a new database DB, then one more region, "Bench Region (500 photos)" (region
id BENCH500), of exactly 500 photos by 200 photographers, every one with a stored 75 px
thumbnail: a real JPEG header and EOI around random bytes, 2-4 KB each like Flickr's square
thumbnails (the page only reads their magic number and embeds them). The same arguments
always make the same database.

`time` runs, alternating, each page next to the NDJSON of the same question, as whole
processes: the top 50 regions (`regions-top --limit 50`) and the 500-photo region
(`regions-top --region BENCH500`), and prints medians, the ratio, and the page's size.

bin/bench's html case (bin/lib/bench_cases.py) builds the same database from
write_region_records() and store_thumbnails(), and times the same pages.
"""
import argparse
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_records  # noqa: E402

REGION_ID = "BENCH500"
REGION_NAME = "Bench Region (500 photos)"
REGION_PHOTOS = 500


def region_records(seed=500):
    """500 records in one region (a 1.5 x 1 degree box), ids above the generated ones."""
    rng = random.Random(seed)
    owners = [f"{rng.randint(10_000_000, 199_999_999)}@N0{rng.randint(0, 8)}" for _ in range(200)]
    lines = []
    for index in range(REGION_PHOTOS):
        photo_id = 99_000_000_000 + index
        record = {
            "id": str(photo_id), "owner": owners[index % len(owners)], "owner_name": f"Photographer {index % 200}",
            "title": rng.choice(["Harbour", "Old town at dusk", "Fog", "東京の夜", "Утро", ""]),
            "description": rng.choice(["", "Shot handheld, no tripod.", "<b>Bold</b> &amp; brave"]),
            "latitude": round(44.0 + rng.random(), 6), "longitude": round(-64.0 + 1.5 * rng.random(), 6),
            "place_id": "BENCH500.place", "uploaded": 1_700_100_000 + index,
            "thumb_url": f"https://live.staticflickr.com/65535/{photo_id}_0123456789_s.jpg",
            "photo_url": f"https://live.staticflickr.com/65535/{photo_id}_0123456789_b.jpg",
            "region_id": REGION_ID, "region": REGION_NAME,
        }
        lines.append(record)
    return lines


def thumbnail(rng):
    body = rng.randbytes(rng.randint(2048, 4096) - 22)
    return bytes([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10]) + b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00" + body + b"\xff\xd9"


def write_region_records(path):
    """The region's 500 records (region_records()) as NDJSON at path; returns path."""
    with open(path, "w", encoding="utf-8") as out:
        for record in region_records():
            out.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
    return path


def store_thumbnails(database, seed=2013):
    """Stores a thumbnail for every photo of the region (loaded already); returns their total bytes."""
    rng = random.Random(seed)
    total = 0
    connection = sqlite3.connect(database)
    with connection:
        for record in region_records():
            data = thumbnail(rng)
            total += len(data)
            connection.execute("INSERT INTO thumbnail (photo_id, bytes, fetched_at) VALUES (?, ?, 0)", (record["id"], data))
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    return total


def make_database(database, bin_dir, records=1_000_000, seed=2013):
    """Builds DB as the module docstring says; returns the thumbnails' total bytes."""
    if os.path.exists(database):
        sys.exit(f"bench_html: {database} exists; give a new path")
    load = os.path.join(bin_dir, "regions-load")
    with tempfile.TemporaryDirectory() as work:
        ndjson = os.path.join(work, "records.ndjson")
        print(f"bench_html: generating {records} records", file=sys.stderr)
        bench_records.generate(ndjson, records, seed=seed)
        region = write_region_records(os.path.join(work, "region.ndjson"))
        print(f"bench_html: loading {records + REGION_PHOTOS} records into {database}", file=sys.stderr)
        subprocess.run([load, "-q", "--db", database, ndjson, region], check=True)
    return store_thumbnails(database, seed)


def run_seconds(argv):
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def time_pages(database, bin_dir, runs=20):
    """[(case, html median s, ndjson median s, html bytes, ndjson bytes)], alternating runs."""
    top = os.path.join(bin_dir, "regions-top")
    cases = [("top 50 regions", ["--limit", "50"]), (f"region of {REGION_PHOTOS} photos with thumbnails", ["--region", REGION_ID])]
    results = []
    for name, arguments in cases:
        html = [top, "--db", database, *arguments, "--format", "html"]
        ndjson = [top, "--db", database, *arguments, "--format", "ndjson"]
        for argv in (html, ndjson):  # warm the page cache
            run_seconds(argv)
        times = {"html": [], "ndjson": []}
        for _ in range(runs):
            times["html"].append(run_seconds(html))
            times["ndjson"].append(run_seconds(ndjson))
        sizes = [len(subprocess.run(argv, stdout=subprocess.PIPE, check=True).stdout) for argv in (html, ndjson)]
        results.append((name, statistics.median(times["html"]), statistics.median(times["ndjson"]), *sizes))
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("action", choices=["make", "time"])
    parser.add_argument("database")
    parser.add_argument("--bin", required=True, help="where the built tools are (e.g. .build/release)")
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    if args.action == "make":
        total = make_database(args.database, args.bin, args.records)
        print(f"bench_html: {args.database}: {args.records + REGION_PHOTOS} photos; region {REGION_ID} has "
              f"{REGION_PHOTOS} photos with {total} bytes of thumbnails", file=sys.stderr)
    else:
        for name, html, ndjson, html_bytes, ndjson_bytes in time_pages(args.database, args.bin, args.runs):
            print(f"{name}: html {html * 1000:.1f} ms ({html_bytes} bytes), ndjson {ndjson * 1000:.1f} ms "
                  f"({ndjson_bytes} bytes): {html / ndjson:.2f}x")


if __name__ == "__main__":
    main()
