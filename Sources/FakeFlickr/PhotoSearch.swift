/// `flickr.photos.search` over the world, for the parameters the toolkit uses.
struct PhotoSearch {
    static let defaultPerPage = 100
    static let maximumPerPage = 500
    /// Flickr never returns a result beyond this position of a query's ordering.
    static let resultCap = 4000

    /// Licence ids to keep; nil keeps every licence.
    var licenses: Set<Int>?
    var minUploadDate: Int64?
    var maxUploadDate: Int64?
    var ascending = false
    /// `has_geo=0` asks for photos without geo data, and every world photo has some.
    var onlyWithoutGeo = false
    var perPage = defaultPerPage
    var page = 1
    var extras: Set<String> = []

    init(_ query: QueryParameters) {
        if let list = query["license"], !list.isEmpty {
            licenses = Set(list.split(separator: ",").compactMap { Int(withoutSpaces($0)) })
        }
        minUploadDate = query["min_upload_date"].flatMap { Int64(withoutSpaces($0)) }
        maxUploadDate = query["max_upload_date"].flatMap { Int64(withoutSpaces($0)) }
        ascending = query["sort"] == "date-posted-asc"
        onlyWithoutGeo = query["has_geo"] == "0"
        if let requested = query["per_page"].flatMap({ Int($0) }), requested > 0 {
            perPage = min(requested, Self.maximumPerPage)
        }
        if let requested = query["page"].flatMap({ Int($0) }), requested > 0 {
            page = requested
        }
        extras = Set((query["extras"] ?? "").split(separator: ",").map { withoutSpaces($0).lowercased() })
    }

    /// Indices into `world.photos` of the matching photos, in result order. Ids grow with
    /// upload time, so ordering by (upload time, id) is ordering by index, and ties in upload
    /// time go by id in the direction of the sort.
    func matches(in world: World, now: Int64) -> [Int] {
        if onlyWithoutGeo { return [] }
        // A geo query with no date limit only covers the last 12 hours (Flickr's rule for
        // searches without a "limiting agent").
        let earliest = minUploadDate ?? (maxUploadDate == nil ? now - World.defaultWindowSeconds + 1 : Int64.min)
        let latest = min(maxUploadDate ?? now, now)
        guard earliest <= latest else { return [] }
        let window = world.firstPhoto(uploadedAtOrAfter: earliest)..<world.firstPhoto(uploadedAtOrAfter: latest + 1)
        let found = window.filter { licenses?.contains(world.photos[$0].license) ?? true }
        return ascending ? found : found.reversed()
    }

    // Paging. Real Flickr is known to repeat a photo across page boundaries; the fake makes
    // that exact, so clients are forced to deduplicate:
    //   page 1 covers positions [0, pp);
    //   every later page starts one position before the end of the page ahead of it, so the
    //   last photo of page p−1 reappears at the top of page p: page p covers
    //   [(p−1)·(pp−1), (p−1)·(pp−1) + pp). (Page 2 is [pp−1, 2·pp−1).)
    // Pages after the first thus advance by pp − 1, and reaching every photo takes
    //   pages = 0 when total = 0, 1 when total ≤ pp, else 1 + ceil((total − pp) / (pp − 1)).
    // With per_page = 1 a page cannot both repeat a photo and advance, so pages are plain.
    // Independently, no position at or beyond 4,000 is ever returned (those pages are empty),
    // while `total` stays the true count and `pages` is computed from it.

    static func positions(page requestedPage: Int, perPage: Int) -> Range<Int> {
        // Any page past the cap is empty; clamping first keeps the arithmetic from overflowing.
        let page = min(requestedPage, resultCap + 1)
        let step = perPage == 1 ? 1 : perPage - 1
        let start = (page - 1) * step
        return min(start, resultCap)..<min(start + perPage, resultCap)
    }

    static func pageCount(total: Int, perPage: Int) -> Int {
        if total == 0 { return 0 }
        if total <= perPage || perPage == 1 { return (total + perPage - 1) / perPage }
        return 1 + (total - perPage + perPage - 2) / (perPage - 1)
    }

    /// The `{"photos": …, "stat": "ok"}` body. `total` and `pages` switch between number and
    /// string from page to page, as they have on Flickr over the years.
    func response(in world: World, now: Int64, imageBaseURL: String) -> String {
        let found = matches(in: world, now: now)
        let range = Self.positions(page: page, perPage: perPage).clamped(to: 0..<found.count)
        let photos = found[range].map {
            PhotoJSON(world: world, photo: world.photos[$0], extras: extras, imageBaseURL: imageBaseURL).serialized
        }
        var envelope = JSONObject()
        envelope.add("page", number: page)
        envelope.add("pages", numeral: String(Self.pageCount(total: found.count, perPage: perPage)),
                     quoted: Mixing.combine(world.options.seed, UInt64(page), Mixing.hash("pages")) % 4 == 0)
        envelope.add("perpage", number: perPage)
        envelope.add("total", numeral: String(found.count), quoted: world.coinFlip(UInt64(page), "total"))
        envelope.add("photo", json: jsonArray(photos))
        var body = JSONObject()
        body.add("photos", object: envelope)
        body.add("stat", string: "ok")
        return body.serialized
    }
}

/// One photo object of a search result, with the fields its extras ask for.
struct PhotoJSON {
    let world: World
    let photo: Photo
    let extras: Set<String>
    let imageBaseURL: String

    var serialized: String {
        var object = JSONObject()
        object.add("id", string: String(photo.id))
        object.add("owner", string: world.photographers[photo.owner].nsid)
        object.add("secret", string: photo.secret)
        object.add("server", string: photo.server)
        object.add("farm", number: photo.farm)
        object.add("title", string: photo.title)
        object.add("ispublic", number: 1)
        object.add("isfriend", number: 0)
        object.add("isfamily", number: 0)
        if extras.contains("license") {
            object.add("license", string: String(photo.license))
        }
        if extras.contains("description") {
            var description = JSONObject()
            description.add("_content", string: photo.description)
            object.add("description", object: description)
        }
        if extras.contains("date_upload") {
            object.add("dateupload", string: String(photo.uploaded))
        }
        if extras.contains("owner_name") {
            object.add("ownername", string: world.photographers[photo.owner].displayName)
        }
        if extras.contains("original_format"), let originalSecret = photo.originalSecret {
            object.add("originalsecret", string: originalSecret)
            object.add("originalformat", string: photo.originalFormat)
        }
        if extras.contains("geo") {
            addGeo(to: &object)
        }
        for size in ImageSize.all where extras.contains("url_" + size.extra) {
            addURL(of: size, to: &object)
        }
        return object.serialized
    }

    private func addGeo(to object: inout JSONObject) {
        let coordinatesQuoted = world.coinFlip(photo.id, "coordinates")
        object.add("latitude", numeral: formatDegrees(photo.latitude), quoted: coordinatesQuoted)
        object.add("longitude", numeral: formatDegrees(photo.longitude), quoted: coordinatesQuoted)
        object.add("accuracy", numeral: String(photo.accuracy), quoted: !world.coinFlip(photo.id, "accuracy-number"))
        object.add("context", number: photo.context)
        if let placeIndex = photo.place {
            let place = world.places[placeIndex]
            object.add("place_id", string: place.id)
            object.add("woeid", string: place.woeid)
        }
        object.add("geo_is_public", number: 1)
        object.add("geo_is_contact", number: 0)
        object.add("geo_is_friend", number: 0)
        object.add("geo_is_family", number: 0)
    }

    private func addURL(of size: ImageSize, to object: inout JSONObject) {
        // A few photos lack url_l even when asked for; their `_b` image is still served.
        if size.suffix == "b" && !photo.offersLargeURL { return }
        guard let path = size.path(of: photo) else { return }
        let (width, height) = size.dimensions(of: photo)
        object.add("url_\(size.extra)", string: imageBaseURL + path)
        object.add("height_\(size.extra)", numeral: String(height), quoted: world.coinFlip(photo.id, "height_" + size.extra))
        object.add("width_\(size.extra)", numeral: String(width), quoted: world.coinFlip(photo.id, "width_" + size.extra))
    }
}

/// "1, 2,4" and " 1700000000" are read leniently, as Flickr does.
private func withoutSpaces(_ text: some StringProtocol) -> String {
    String(text.filter { !$0.isWhitespace })
}
