#!/usr/bin/env python3
"""Makes Sources/TopRegionsCore/Formatting/WorldOutline.swift: the world's countries as one
compact SVG path, for the maps `regions-top --format html` draws.

The shapes are Natural Earth's public-domain 1:110m countries ("Made with Natural Earth",
https://www.naturalearthdata.com/about/terms-of-use/), as the PyPI wheel geopandas==0.14.4
ships them (geopandas/datasets/naturalearth_lowres). Run this once, by hand, when the outline
should change; the tools and tests never download anything. It needs pip (to download the
wheel) and pyshp (`python3 -m pip install pyshp`, pure Python, reads the shapefile).

    bin/lib/make-world-outline.py                 # rewrites the Swift file
    bin/lib/make-world-outline.py --tolerance 1.5 # coarser (units: 0.1 degree)

Projection: equirectangular, x = (longitude + 180) * 10, y = (90 - latitude) * 10, so the
whole world is 3600 x 1800 units of 0.1 degree. Rings are simplified with Douglas-Peucker,
rounded to whole units, and written as relative path commands.
"""
import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile

WHEEL = "geopandas==0.14.4"
MEMBER = "geopandas/datasets/naturalearth_lowres/naturalearth_lowres"
# The shapes this script was written against; another wheel would be another outline.
SHP_SHA256 = "1f689e60b357e1e98702d5d9f774e95e77fc6b324487cadf57eb9317d533ce12"
OUTPUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                      "Sources", "TopRegionsCore", "Formatting", "WorldOutline.swift")


def project(lon, lat):
    return ((lon + 180.0) * 10.0, (90.0 - lat) * 10.0)


def simplify(points, tolerance):
    """Douglas-Peucker on an open polyline; keeps both ends."""
    if len(points) < 3:
        return list(points)
    keep = [False] * len(points)
    keep[0] = keep[-1] = True
    stack = [(0, len(points) - 1)]
    while stack:
        first, last = stack.pop()
        (ax, ay), (bx, by) = points[first], points[last]
        dx, dy = bx - ax, by - ay
        length2 = dx * dx + dy * dy
        worst, worst_index = -1.0, None
        for i in range(first + 1, last):
            px, py = points[i]
            if length2 == 0:
                d2 = (px - ax) ** 2 + (py - ay) ** 2
            else:
                t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
                d2 = (px - ax - t * dx) ** 2 + (py - ay - t * dy) ** 2
            if d2 > worst:
                worst, worst_index = d2, i
        if worst_index is not None and worst > tolerance * tolerance:
            keep[worst_index] = True
            stack.append((first, worst_index))
            stack.append((worst_index, last))
    return [p for p, k in zip(points, keep) if k]


def ring_area(points):
    return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1]))) / 2


def encode_ring(points):
    """'M x y', then relative 'l' steps; a minus sign separates two numbers by itself."""
    numbers = []
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        numbers += [x1 - x0, y1 - y0]
    steps = ""
    for number in numbers:
        steps += str(number) if number < 0 or not steps else " " + str(number)
    return "M%d %d" % points[0] + "l" + steps + "z"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tolerance", type=float, default=1.0, help="Douglas-Peucker tolerance, in 0.1 degree (default 1)")
    parser.add_argument("--min-area", type=float, default=4.0, help="drop rings smaller than this, in (0.1 degree)^2 (default 4)")
    parser.add_argument("--output", default=OUTPUT)
    args = parser.parse_args()
    try:
        import shapefile  # pyshp
    except ImportError:
        sys.exit("make-world-outline: needs pyshp (python3 -m pip install pyshp)")

    with tempfile.TemporaryDirectory() as work:
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                        "--dest", work, WHEEL], check=True)
        wheel = next(os.path.join(work, name) for name in os.listdir(work) if name.endswith(".whl"))
        with zipfile.ZipFile(wheel) as archive:
            for suffix in (".shp", ".shx", ".dbf"):
                archive.extract(MEMBER + suffix, work)
        base = os.path.join(work, MEMBER)
        with open(base + ".shp", "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        if digest != SHP_SHA256:
            sys.exit("make-world-outline: %s.shp has sha256 %s, expected %s" % (MEMBER, digest, SHP_SHA256))
        reader = shapefile.Reader(base)
        rings = []
        countries = 0
        for shape in reader.shapes():
            countries += 1
            parts = list(shape.parts) + [len(shape.points)]
            for start, end in zip(parts, parts[1:]):
                ring = [project(lon, lat) for lon, lat in shape.points[start:end]]
                if len(ring) > 1 and ring[0] == ring[-1]:
                    ring = ring[:-1]
                ring = simplify(ring + [ring[0]], args.tolerance)[:-1]
                rounded = []
                for x, y in ring:
                    point = (int(round(x)), int(round(y)))
                    if not rounded or rounded[-1] != point:
                        rounded.append(point)
                while len(rounded) > 1 and rounded[0] == rounded[-1]:
                    rounded.pop()
                if len(rounded) >= 3 and ring_area(rounded) >= args.min_area:
                    rings.append(rounded)

    path = "".join(encode_ring(ring) for ring in rings)
    points = sum(len(ring) for ring in rings)
    # One multi-line string literal; a backslash at the end of a line joins it to the next.
    body = "\\\n".join(path[i:i + 120] for i in range(0, len(path), 120))
    swift = f'''// Generated by bin/lib/make-world-outline.py (tolerance {args.tolerance:g}, min area {args.min_area:g}); do not edit.
// Made with Natural Earth: public-domain 1:110m countries (https://www.naturalearthdata.com),
// as shipped in the PyPI wheel {WHEEL} (naturalearth_lowres). {countries} countries,
// {len(rings)} rings, {points} points.

/// The countries of the world as one SVG path, equirectangular: x = (longitude + 180) * 10,
/// y = (90 - latitude) * 10, so the world spans 3600 x 1800 units of 0.1 degree.
enum WorldOutline {{
    static let width = 3600
    static let height = 1800
    static let attribution = "Made with Natural Earth"

    static let path = """
{body}
"""
}}
'''
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(swift)
    print("make-world-outline: %d rings, %d points, %d bytes of path, %d bytes in %s"
          % (len(rings), points, len(path), len(swift.encode()), os.path.relpath(args.output)), file=sys.stderr)


if __name__ == "__main__":
    main()
