#!/usr/bin/env python3
"""Makes Sources/TopRegionsCore/Formatting/WorldOutline.swift: the world's countries as one
compact SVG path, for the world maps (the top page's, a list's spread over a continent or more).

The shapes are Natural Earth's public-domain 1:50m countries ("Made with Natural Earth",
https://www.naturalearthdata.com/about/terms-of-use/), read from the geography already built
into the program (Sources/CGeography/geography.c.bin, made by bin/lib/make-geography.py from
its sources pinned by their checksums): this script downloads nothing. Run it once, by hand,
when the outline should change (after make-geography.py, or for another tolerance).

    bin/lib/make-world-outline.py                 # rewrites the Swift file
    bin/lib/make-world-outline.py --tolerance 2   # coarser (units: 0.1 degree)

Projection: equirectangular, x = (longitude + 180) * 10, y = (90 - latitude) * 10, so the
whole world is 3600 x 1800 units of 0.1 degree. Rings are simplified with Douglas-Peucker,
rounded to whole units, and written as relative path commands.
"""
import argparse
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
GEOGRAPHY = os.path.join(ROOT, "Sources", "CGeography", "geography.c.bin")
OUTPUT = os.path.join(ROOT, "Sources", "TopRegionsCore", "Formatting", "WorldOutline.swift")


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


def country_rings(path):
    """(countries, their outer rings projected) from the built-in geography's bytes (the
    format make-geography.py writes: its areas, countries first; holes and the other kinds
    skipped)."""
    data = open(path, "rb").read()
    if not data.startswith(b"TRGEO2\n\0"):
        sys.exit("make-world-outline: %s is not the geography make-geography.py writes" % path)
    position = 8

    def byte():
        nonlocal position
        position += 1
        return data[position - 1]

    def varint():
        value, shift = 0, 0
        while True:
            b = byte()
            value |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                return value

    def zigzag():
        value = varint()
        return (value >> 1) ^ -(value & 1)

    def string():
        nonlocal position
        length = varint()
        position += length
        return data[position - length:position].decode("utf-8")

    countries, rings = 0, []
    for _ in range(varint()):
        kind = byte()
        string(), string(), string()  # code, parent, name
        countries += kind == 0
        for _ in range(varint()):
            hole = byte()
            x = y = 0
            ring = []
            for _ in range(varint()):
                x += zigzag()
                y += zigzag()
                ring.append(project(x / 1e4, y / 1e4))
            if kind == 0 and not hole:
                rings.append(ring)
    return countries, rings


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tolerance", type=float, default=1.5, help="Douglas-Peucker tolerance, in 0.1 degree (default 1.5)")
    parser.add_argument("--min-area", type=float, default=2.0, help="drop rings smaller than this, in (0.1 degree)^2 (default 2)")
    parser.add_argument("--output", default=OUTPUT)
    args = parser.parse_args()
    countries, source = country_rings(GEOGRAPHY)
    rings = []
    for ring in source:
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
// Made with Natural Earth: public-domain 1:50m countries (https://www.naturalearthdata.com),
// read from Sources/CGeography/geography.c.bin (bin/lib/make-geography.py). {countries} countries,
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
