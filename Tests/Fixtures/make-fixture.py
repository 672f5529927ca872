#!/usr/bin/env python3
"""Writes photos.ndjson, the fixture the end-to-end tests load.

Deterministic (fixed seed): run it again and the file is byte-identical. It exercises what
the store must get right:
- 64 regions (more than the 50 the top list shows), names with accents and non-Latin
  scripts, two names equal but for case, and regions tied on photographer count;
- several places per region, and country-level places with no region;
- photographers active in several regions, with a popularity skew;
- records already resolved (region_id + region, as place-resolve emits them) and records
  whose place is unresolved but resolved by another record in the file;
- Flickr's raw photo objects (numbers as strings, description._content, ownername,
  dateupload), unknown fields, photos without place_id, and repeated photos.
"""
import json
import random

rng = random.Random(20131113)

REGION_NAMES = [
    "Île-de-France, France", "Nova Scotia, Canada", "Tōkyō, Japan", "São Paulo, Brazil",
    "Baden-Württemberg, Germany", "Zürich, Switzerland", "Москва, Россия", "Κρήτη, Ελλάδα",
    "Provence-Alpes-Côte d'Azur, France", "Andalucía, España", "Ciudad de México, México",
    "Québec, Canada", "England, United Kingdom", "Scotland, United Kingdom", "California, United States",
    "New York, United States", "Hawaii, United States", "Bayern, Germany", "Lombardia, Italia",
    "Toscana, Italia", "Catalunya, España", "Noord-Holland, Nederland", "Bruxelles, Belgique",
    "Wien, Österreich", "Praha, Česko", "Małopolskie, Polska", "İstanbul, Türkiye", "القاهرة, مصر",
    "北京市, 中国", "서울특별시, 대한민국", "Maharashtra, India", "New South Wales, Australia",
    "Victoria, Australia", "Auckland, New Zealand", "Western Cape, South Africa", "Buenos Aires, Argentina",
    "Región Metropolitana, Chile", "Lima, Perú", "Antioquia, Colombia", "Reykjavík, Ísland",
    "Oslo, Norge", "Stockholm, Sverige", "Uusimaa, Suomi", "Hovedstaden, Danmark", "Lisboa, Portugal",
    "Dublin, Ireland", "Texas, United States", "Florida, United States", "Ontario, Canada",
    "British Columbia, Canada", "Jalisco, México", "Rio de Janeiro, Brasil", "Bali, Indonesia",
    "Bangkok, ประเทศไทย", "Hà Nội, Việt Nam", "Selangor, Malaysia", "Singapore, Singapore",
    "Kyōto, Japan", "Hokkaidō, Japan", "Ελλάδα Αττική, Ελλάδα", "Malta, Malta",
    # Equal but for case: ties between them go by the region id.
    "Alpha Region, Testland", "alpha region, Testland", "Zulu Region, Testland",
]
assert len(REGION_NAMES) == 64

regions = []
for i, name in enumerate(REGION_NAMES):
    region_id = "R%03d.%s" % (i, "".join(rng.choice("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") for _ in range(8)))
    lat = round(rng.uniform(-60, 70), 6)
    lon = round(rng.uniform(-170, 170), 6)
    places = ["P%03d.%d.%s" % (i, j, "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(6))) for j in range(rng.randint(2, 5))]
    regions.append({"id": region_id, "name": name, "lat": lat, "lon": lon, "places": places})
country_places = ["C%02d.country" % i for i in range(4)]

photographers = []
for i in range(400):
    nsid = "%08d@N0%d" % (rng.randint(10_000_000, 99_999_999), rng.randint(0, 9))
    # Two photographers share a display name: identity is the NSID.
    name = "Ann" if i in (0, 1) else "Photographer %d" % i
    home = rng.sample(range(61), rng.randint(1, 4))
    photographers.append({"nsid": nsid, "name": name, "regions": home})

# Popularity: region weight falls with rank, so the ranking is clear at the top and crowded
# (with ties) at the bottom.
weights = [1.0 / (1 + r) ** 0.9 for r in range(64)]
# The case-twins and Zulu get exactly one photographer each, all in place 0: a three-way tie.
tie_regions = {61, 62, 63}

records = []
photo_id = 53_100_000_000
upload = 1_700_000_000


def raw_flickr(record):
    """The same photo as Flickr's search sends it, types mixed the way Flickr mixes them."""
    raw = {
        "id": record["id"], "owner": record["owner"], "secret": "a1b2c3d4e5", "server": "65535", "farm": 66,
        "title": record["title"], "ispublic": 1, "isfriend": 0, "isfamily": 0,
        "description": {"_content": record["description"]}, "dateupload": str(record["uploaded"]),
        "ownername": record["owner_name"],
        "latitude": str(record["latitude"]) if rng.random() < 0.5 else record["latitude"],
        "longitude": str(record["longitude"]) if rng.random() < 0.5 else record["longitude"],
        "accuracy": "16" if rng.random() < 0.5 else 16, "context": 0,
        "url_sq": record["thumb_url"], "url_l": record["photo_url"],
    }
    if "place_id" in record:
        raw["place_id"] = record["place_id"]
    return raw


for n in range(3000):
    photo_id += rng.randint(1, 50)
    upload += rng.randint(0, 20)
    p = rng.choice(photographers)
    if n < 3:
        region_index = sorted(tie_regions)[n]
        p = photographers[10 + n]
    elif rng.random() < 0.7:
        region_index = rng.choice(p["regions"])
    else:
        region_index = rng.choices(range(61), weights=weights[:61])[0]
    region = regions[region_index]
    place = region["places"][0] if region_index in tie_regions else rng.choice(region["places"])
    record = {
        "id": str(photo_id), "owner": p["nsid"], "owner_name": p["name"],
        "title": rng.choice(["Harbour at dusk", "", "Street", "Market day", "Rain, again", "\"Quoted\" title", "Ωραία μέρα", "夜景"]) + ("" if rng.random() < 0.5 else " %d" % n),
        "description": rng.choice(["", "Taken from the north pier.\nWindy evening.", "<b>Bold</b> &amp; brave", "Just a photo"]),
        "latitude": round(region["lat"] + rng.uniform(-0.5, 0.5), 6),
        "longitude": round(region["lon"] + rng.uniform(-0.5, 0.5), 6),
        "place_id": place, "uploaded": upload,
        "thumb_url": "https://live.staticflickr.com/65535/%d_a1b2c3d4e5_s.jpg" % photo_id,
        "photo_url": "https://live.staticflickr.com/65535/%d_a1b2c3d4e5_b.jpg" % photo_id,
    }
    roll = rng.random()
    if region_index in tie_regions or roll < 0.75:
        # Resolved, as place-resolve emits it.
        record["region_id"] = region["id"]
        record["region"] = region["name"]
    elif roll < 0.80:
        # A country-level place: never in a region.
        record["place_id"] = rng.choice(country_places)
    elif roll < 0.82:
        # No place at all.
        del record["place_id"]
    # else: unresolved here; another record in the file resolves the same place.
    if rng.random() < 0.05:
        record["license"] = "4"
        record["tags"] = ["sea", "dusk"]
    if region_index not in tie_regions and rng.random() < 0.15 and "region_id" not in record:
        records.append(raw_flickr(record))
    else:
        records.append(record)

# Every place used only by unresolved records gets one resolved record, so the file
# decides every region itself.
resolved_places = {r["place_id"] for r in records if "region_id" in r}
for region in regions:
    for place in region["places"]:
        used = any(r.get("place_id") == place for r in records)
        if used and place not in resolved_places:
            photo_id += 7
            p = rng.choice(photographers)
            records.append({
                "id": str(photo_id), "owner": p["nsid"], "owner_name": p["name"], "title": "Resolver",
                "description": "", "latitude": region["lat"], "longitude": region["lon"], "place_id": place,
                "uploaded": upload, "region_id": region["id"], "region": region["name"],
            })

# Repeats: exact copies, skipped on load. (A changed copy would be an update, and one in a
# later batch than the original would make reloading the file rewrite both: the tests
# cover updates with inputs of their own.)
for index in rng.sample(range(len(records)), 40):
    records.append(dict(records[index]))

with open("photos.ndjson", "w", encoding="utf-8") as out:
    for record in records:
        out.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
print("wrote %d records" % len(records))
