import TopRegionsRecords

extension HTMLPage {
    /// The box a map shows, in degrees: its frame, within the world.
    static func shownBox(of map: ListMap) -> (west: Double, south: Double, east: Double, north: Double) {
        shownBox(of: (map.x, map.y, map.width, map.height, map.xScale))
    }

    static func shownBox(
        of frame: (x: Double, y: Double, width: Double, height: Double, xScale: Double)
    ) -> (west: Double, south: Double, east: Double, north: Double) {
        let west = max(-180, frame.x / frame.xScale / 10 - 180), east = min(180, (frame.x + frame.width) / frame.xScale / 10 - 180)
        let north = min(90, 90 - frame.y / 10), south = max(-90, 90 - (frame.y + frame.height) / 10)
        return (west, south, east, north)
    }

    /// The quarters of what `map` shows that hold at least one of its photos (north-west,
    /// north-east, south-west, south-east), each a box a page can show: what a person can zoom
    /// into. None once the view is too small to halve (`GeoBox.smallest`). The same boxes for
    /// the page's links and for the pages `regions-serve --export` writes.
    public static func zoomQuarters(of map: ListMap) -> [GeoBox] {
        map.quarters
    }

    /// `zoomQuarters`, found as the map is drawn (not for each page that shows it).
    static func quarters(of frame: (x: Double, y: Double, width: Double, height: Double, xScale: Double), holding points: [MapPoint]) -> [GeoBox] {
        let shown = shownBox(of: frame)
        guard shown.north - shown.south >= 2 * GeoBox.smallest else { return [] }
        let (midLongitude, midLatitude) = ((shown.west + shown.east) / 2, (shown.south + shown.north) / 2)
        let quarters = [
            (shown.west, midLatitude, midLongitude, shown.north), (midLongitude, midLatitude, shown.east, shown.north),
            (shown.west, shown.south, midLongitude, midLatitude), (midLongitude, shown.south, shown.east, midLatitude),
        ]
        return quarters.compactMap { west, south, east, north in
            // Rounded as a page's address writes it, so the box linked is the box listed.
            guard let box = try? GeoBox(rounding: west, south, east, north),
                  points.contains(where: { box.contains(latitude: $0.latitude, longitude: $0.longitude) })
            else { return nil }
            return box
        }
    }

    /// What lets a person look closer at a list's map and back, without script: each quarter
    /// holding photos a link over the map (`overlay`, in percent of its frame), and under it
    /// (`caption`) how many photos the view holds, a link out and one to the whole list.
    static func zoomControls(list: PhotoList, map: ListMap, site: Site, total: Int) -> (overlay: String, caption: String)? {
        let zoomsIn = site.zoomsIn(list)
        guard zoomsIn || list.view != nil else { return nil }
        var overlay = ""
        if zoomsIn {
            let shown = shownBox(of: map)
            let (width, height) = (shown.east - shown.west, shown.north - shown.south)
            for box in zoomQuarters(of: map) {
                let left = (box.west - shown.west) / width * 100, top = (shown.north - box.north) / height * 100
                overlay += "<a class=\"zoom\" href=\"\(escape(site.link(to: list.viewing(box), page: 1)))\" title=\"Look closer at this part\" "
                    + "style=\"left:\(number(left))%;top:\(number(top))%;width:\(number((box.east - box.west) / width * 100))%;"
                    + "height:\(number((box.north - box.south) / height * 100))%\"></a>\n"
            }
        }
        var parts: [String] = []
        if list.view != nil {
            parts.append("\(count(total, "photo")) in this view")
            if site.isServed, let out = zoomedOut(of: map) {
                parts.append("<a href=\"\(escape(site.link(to: list.viewing(out), page: 1)))\">Zoom out</a>")
            }
            parts.append("<a href=\"\(escape(site.link(to: list.viewing(nil), page: 1)))\">The whole map</a>")
        }
        if !overlay.isEmpty { parts.append("Click a part of the map to look closer.") }
        guard !parts.isEmpty else { return nil }
        return (overlay, "<figcaption class=\"zoom-bar\">" + parts.joined(separator: " · ") + "</figcaption>\n")
    }

    /// The box twice as wide and as high as what `map` shows, around its middle (within the
    /// world); nil when that is most of the world (the whole list's map is then the way out).
    static func zoomedOut(of map: ListMap) -> GeoBox? {
        let shown = shownBox(of: map)
        let (halfWidth, halfHeight) = (shown.east - shown.west, shown.north - shown.south)
        guard halfHeight < 60 else { return nil }
        let (midLongitude, midLatitude) = ((shown.west + shown.east) / 2, (shown.south + shown.north) / 2)
        return try? GeoBox(
            rounding: max(-180, midLongitude - halfWidth), max(-90, midLatitude - halfHeight),
            min(180, midLongitude + halfWidth), min(90, midLatitude + halfHeight))
    }
}
