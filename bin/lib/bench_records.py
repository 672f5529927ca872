"""Deterministic photo records (topregions-record(7)) for bin/bench.

The same (count, seed) always gives byte-identical NDJSON, so a benchmark run on one
machine can be repeated on another. The shape follows what flickr-recent writes from
Flickr's recent geotagged photos:

  * photographers are heavy-tailed: a few upload a lot, most upload a handful. Two shapes:
    "bench" (Zipf-like weights over 1 photographer per 40 photos: thousands of them, most
    photos from the busiest) and "many", Flickr's geotagged stream as it is (a power law
    of photos per photographer, P(at least k) = 1/k², so about 0.6 photographers per photo,
    most with one or two photos, a few with hundreds: ~120k photographers per 200k photos);
  * about 110 regions (Flickr states/provinces), each with a few places (towns) below it,
    and region popularity is skewed too;
  * about 10% of photos lie in country-level places, which have no region: those records
    carry a place_id but no region_id/region;
  * names, titles and descriptions mix ASCII with accents, Cyrillic, Greek, CJK and
    Arabic; descriptions range from empty to a couple of kilobytes of HTML with line breaks.
"""

import itertools
import json
import random

# Regions as Flickr names them ("Region, Country"), many in their own script.
REGION_NAMES = [
    "Nova Scotia, Canada", "Québec, Canada", "British Columbia, Canada", "Ontario, Canada",
    "Alberta, Canada", "California, United States", "New York, United States",
    "Texas, United States", "Florida, United States", "Washington, United States",
    "Illinois, United States", "Massachusetts, United States", "Colorado, United States",
    "Hawaii, United States", "Oregon, United States", "Louisiana, United States",
    "Ciudad de México, México", "Yucatán, México", "Jalisco, México", "Oaxaca, México",
    "São Paulo, Brazil", "Rio de Janeiro, Brazil", "Bahia, Brazil", "Buenos Aires, Argentina",
    "Mendoza, Argentina", "Región Metropolitana, Chile", "Cusco, Perú", "Antioquia, Colombia",
    "England, United Kingdom", "Scotland, United Kingdom", "Wales, United Kingdom",
    "Northern Ireland, United Kingdom", "Leinster, Ireland", "Munster, Ireland",
    "Île-de-France, France", "Provence-Alpes-Côte d'Azur, France", "Bretagne, France",
    "Auvergne-Rhône-Alpes, France", "Occitanie, France", "Bayern, Deutschland",
    "Berlin, Deutschland", "Nordrhein-Westfalen, Deutschland", "Hamburg, Deutschland",
    "Baden-Württemberg, Deutschland", "Sachsen, Deutschland", "Cataluña, España",
    "Comunidad de Madrid, España", "Andalucía, España", "País Vasco, España", "Lisboa, Portugal",
    "Porto, Portugal", "Lazio, Italia", "Toscana, Italia", "Lombardia, Italia", "Veneto, Italia",
    "Sicilia, Italia", "Noord-Holland, Nederland", "Zuid-Holland, Nederland",
    "Zürich, Schweiz", "Graubünden, Schweiz", "Wien, Österreich", "Tirol, Österreich",
    "Mazowieckie, Polska", "Małopolskie, Polska", "Praha, Česko", "Stockholm, Sverige",
    "Västra Götaland, Sverige", "Oslo, Norge", "Vestland, Norge", "Uusimaa, Suomi",
    "Hovedstaden, Danmark", "Höfuðborgarsvæðið, Ísland", "Αττική, Ελλάδα",
    "Κρήτη, Ελλάδα", "İstanbul, Türkiye", "Москва, Россия", "Санкт-Петербург, Россия",
    "Київ, Україна", "Львівська область, Україна", "東京都, Japan", "大阪府, Japan",
    "京都府, Japan", "北海道, Japan", "北京市, 中国", "上海市, 中国", "广东省, 中国",
    "서울특별시, 대한민국", "부산광역시, 대한민국", "臺北市, 臺灣", "Maharashtra, India",
    "Delhi, India", "Kerala, India", "กรุงเทพมหานคร, ประเทศไทย", "เชียงใหม่, ประเทศไทย",
    "Hà Nội, Việt Nam", "Bali, Indonesia", "New South Wales, Australia", "Victoria, Australia",
    "Queensland, Australia", "Western Australia, Australia", "Auckland, New Zealand",
    "Canterbury, New Zealand", "Western Cape, South Africa", "Gauteng, South Africa",
    "القاهرة, مصر", "Marrakech-Safi, Maroc", "Nairobi, Kenya", "Tasmania, Australia",
    "Utah, United States", "Arizona, United States",
]
assert len(REGION_NAMES) == 110

TOWNS = ["Harbour", "Old Town", "Riverside", "Centre", "Hills", "Bay", "Market", "Station",
         "Gare", "Altstadt", "Центр", "Vieux-Port", "中心", "역", "Χώρα", "Nord", "Sud", "Porto"]
FIRST_NAMES = ["Ana", "Ben", "Chloé", "Dmitri", "Eun-ji", "Fatima", "Gustavo", "Hanna", "Ines",
               "Jürgen", "Kenji", "Léa", "Mateus", "Nikolai", "Olga", "Priya", "Quentin", "Rosa",
               "Søren", "Takumi", "Uma", "Vera", "Wei", "Xiadani", "Yusuf", "Zoë", "Алексей",
               "Μαρία", "美咲", "민준", "محمد"]
SURNAMES = ["", "", " Smith", " García", " Müller", " Rossi", " Dubois", " Nowak", " Иванов",
            " 佐藤", " 김", " Papadopoulos", " O'Brien", " da Silva", " Nguyễn"]
TITLE_WORDS = ["Sunset", "Harbour", "Fog", "Tram", "Market", "Bridge", "Rain", "Street",
               "Portrait", "Cathedral", "Lake", "Snow", "日落", "夜景", "Москва", "café", "Ωραίο",
               "바다", "IMG", "DSC", "Blue hour", "Golden", "über", "Straße"]
SENTENCES = ["Shot handheld, no tripod.", "Taken from the north pier at dusk.",
             "Explored! Thank you all for the kind comments.",
             "<a href=\"https://example.com/p\">More on my blog</a>",
             "Fuji X-T4, 23mm f/2, ISO 800.", "Vue depuis le belvédère, très tôt le matin.",
             "Утро в старом городе.", "東京の夜。", "Η θέα από το λόφο.",
             "Line one\nline two\n\nline four.", "© all rights reserved — ask before use.",
             "#street #travel #photography #nofilter"]

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._"

# Record layout: the first photo id and upload time (Unix seconds, Nov 2023).
FIRST_ID = 53_100_000_000
FIRST_UPLOAD = 1_700_000_000


def _place_id(rng):
    return "".join(rng.choice(ALPHABET) for _ in range(16))


def _description(rng):
    # Most photos have none or one line; a tail carries long HTML-ish text.
    shape = rng.random()
    if shape < 0.35:
        return ""
    if shape < 0.9:
        return rng.choice(SENTENCES)
    return " ".join(rng.choices(SENTENCES, k=rng.randint(2, 40)))


SHAPES = ("bench", "many")


def photographer_count(records):
    """The bench shape: thousands of photographers at the larger sizes, 1 per 40 photos, at least 250."""
    return max(250, records // 40)


def _nsid(rng):
    return f"{rng.randint(10_000_000, 199_999_999)}@N0{rng.randint(0, 8)}"


def _many_owners(rng, total, places, place_cumulative):
    """The "many" shape's photographers and the owner of each of `total` photos, in upload
    order: each photographer takes floor(Pareto(2)) photos (1 for most, hundreds for a few),
    until there are enough, and their photos are shuffled over the stream."""
    counts = []
    while sum(counts) < total:
        counts.extend(min(int(rng.paretovariate(2.0)), 5_000) for _ in range(1_000))
    nsids = set()
    while len(nsids) < len(counts):
        nsids.add(_nsid(rng))
    homes = rng.choices(range(len(places)), cum_weights=place_cumulative, k=len(counts))
    photographers = [(nsid, rng.choice(FIRST_NAMES) + rng.choice(SURNAMES), home)
                     for nsid, home in zip(sorted(nsids), homes)]
    owners = [photographer for photographer, count in zip(photographers, counts) for _ in range(count)]
    del owners[total:]
    rng.shuffle(owners)
    return photographers, owners


def generate(path, records, seed=2013, shape="bench", following_path=None, following=0, span=None):
    """Writes `records` photo records to `path` as NDJSON, and when asked the `following`
    newer records of the same world (later ids and uploads, the same photographers and
    new ones: a later refresh) to `following_path`; returns a summary dict.

    `span`: the records' uploads spread evenly over that many seconds from FIRST_UPLOAD (a
    month of refreshes), instead of a second or two apart.

    The bench shape's first `records` do not depend on `following`."""
    assert shape in SHAPES, shape
    rng = random.Random(seed)

    regions = [(f"{_place_id(rng)}", name) for name in REGION_NAMES]
    # Each region has 3 to 6 places below it; 40 country-level places have no region.
    places = []  # (place_id, region_id or None, region name or None, lat, lon)
    for region_id, name in regions:
        lat, lon = rng.uniform(-50, 65), rng.uniform(-170, 175)
        for _ in range(rng.randint(3, 6)):
            places.append((_place_id(rng), region_id, name, lat + rng.uniform(-2, 2), lon + rng.uniform(-2, 2)))
    rng.shuffle(places)  # popularity below is by list position: spread it over regions
    region_place_count = len(places)
    for _ in range(40):
        places.append((_place_id(rng), None, None, rng.uniform(-50, 65), rng.uniform(-170, 175)))
    # Popularity: Zipf-like over regional places; country-level places take ~10% in all.
    regional_weights = [1 / (rank + 1) ** 0.9 for rank in range(region_place_count)]
    scale = 0.9 / sum(regional_weights)
    place_weights = [w * scale for w in regional_weights] + [0.1 / 40] * 40
    place_cumulative = list(itertools.accumulate(place_weights))

    # Each photographer shoots around a home place most of the time.
    if shape == "many":
        photographers, owners = _many_owners(rng, records + following, places, place_cumulative)
    else:
        photographers = []
        for index in range(photographer_count(records)):
            nsid = _nsid(rng)
            name = rng.choice(FIRST_NAMES) + rng.choice(SURNAMES)
            home = rng.choices(range(len(places)), cum_weights=place_cumulative)[0]
            photographers.append((nsid, name, home))
        photographer_cumulative = list(itertools.accumulate(1 / (rank + 1) ** 0.95 for rank in range(len(photographers))))
        # The skewed draws, all at once (one call each is much faster than one per record).
        owners = rng.choices(photographers, cum_weights=photographer_cumulative, k=records)
    elsewhere = rng.choices(places, cum_weights=place_cumulative, k=records)

    next_photo = (FIRST_ID, FIRST_UPLOAD)
    dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    with open(path, "w", encoding="utf-8") as out:
        next_photo = _write(out, rng, owners[:records], elsewhere, places, next_photo, dumps,
                            step=None if span is None else span / records)
    stored = len({owner[0] for owner in owners[:records]})
    if following_path:
        # The many shape drew the following records' owners with the first ones'.
        later = owners[records:] if shape == "many" else rng.choices(
            photographers, cum_weights=photographer_cumulative, k=following)
        elsewhere = rng.choices(places, cum_weights=place_cumulative, k=following)
        with open(following_path, "w", encoding="utf-8") as out:
            _write(out, rng, later, elsewhere, places, next_photo, dumps)
    return {"records": records, "photographers": stored, "regions": len(regions), "places": len(places)}


def _write(out, rng, owners, elsewhere, places, next_photo, dumps, step=None):
    """Writes one record per owner; returns the next photo's id and upload time. `step`:
    the mean seconds between uploads (none: 0 or 1 at random)."""
    photo_id, uploaded = next_photo
    start = uploaded
    for index in range(len(owners)):
        photo_id += 1 + rng.getrandbits(5)
        uploaded = start + int(index * step) if step else uploaded + rng.getrandbits(1)
        nsid, owner_name, home = owners[index]
        # 70% at the photographer's home place, the rest wherever photos are taken.
        place_id, region_id, region, lat, lon = places[home] if rng.random() < 0.7 else elsewhere[index]
        secret = f"{rng.getrandbits(40):010x}"
        server = rng.choice(("65535", "4578", "7372", "31337"))
        record = {
            "id": str(photo_id),
            "owner": nsid,
            "owner_name": owner_name,
            "title": " ".join(rng.choices(TITLE_WORDS, k=rng.randrange(5))),
            "description": _description(rng),
            "latitude": round(lat + rng.uniform(-0.2, 0.2), 6),
            "longitude": round(lon + rng.uniform(-0.2, 0.2), 6),
            "place_id": place_id,
            "uploaded": uploaded,
            "thumb_url": f"https://live.staticflickr.com/{server}/{photo_id}_{secret}_s.jpg",
            "photo_url": f"https://live.staticflickr.com/{server}/{photo_id}_{secret}_b.jpg",
        }
        if region_id is not None:
            record["region_id"] = region_id
            record["region"] = region
        out.write(dumps(record))
        out.write("\n")
    return photo_id, uploaded


if __name__ == "__main__":
    # bench_records.py PATH COUNT [SHAPE [FOLLOWING_PATH FOLLOWING]]
    import sys
    arguments = sys.argv[1:]
    more = {"following_path": arguments[3], "following": int(arguments[4])} if len(arguments) > 4 else {}
    print(generate(arguments[0], int(arguments[1]), shape=arguments[2] if len(arguments) > 2 else "bench", **more),
          file=sys.stderr)
