extension HTMLPage {
    /// What a city's map draws over its land (the whole frame): the region's area lighter,
    /// rivers (at high resolution), the subdivisions' and countries' borders and the area's own borders, then the sea
    /// from the high-resolution coasts (`Coasts`) over them all (1:50m areas reach a kilometre or
    /// two past the real coasts, or stop short of them). Only borders are stroked from the 1:50m
    /// areas (`Geography.Edges`): their coasts would be lines across the land.
    static func shoreLayers(
        area: Geography.Area?, shore: (sea: String, frame: String), view: Geography.Bounds, tolerance: Double, transform: String
    ) -> String {
        let clip = view.cut
        let countries = Geography.countryAreas.areas.filter { $0.bounds.intersects(clip) }
        let subdivisions = Geography.subdivisionAreas.areas.filter { $0.bounds.intersects(clip) }
        // Each area's rings read once for the three kinds of border below.
        var read: [Int: [[Geography.Point]]] = [:]
        func near(_ area: Geography.Area) -> [[Geography.Point]] {
            if let rings = read[area.identity] { return rings }
            let rings = Geography.Edges.rings(of: area, near: clip)
            read[area.identity] = rings
            return rings
        }
        var svg = ""
        func add(_ classes: String, _ path: String, _ more: String = "") {
            if !path.isEmpty { svg += "<path class=\"\(classes)\"\(more)\(transform) d=\"\(path)\"/>\n" }
        }
        var areaEdges: Geography.Edges?
        if let area {
            add("region", Geography.path(of: [area], within: view, tolerance: tolerance, holes: true), " fill-rule=\"evenodd\"")
            // Its borders against every other area near it; its 1:50m coasts drawn wide in its own
            // colour (the sea is drawn over them), so the land between them and the real coast
            // is the region's too.
            // (Not its own country, nor its own subdivisions: their coasts run along its coasts.)
            let others = (subdivisions + countries).filter { $0.identity != area.identity && !$0.encloses(area) && !area.encloses($0) }
            let edges = Geography.Edges(of: [0], among: [area] + others, within: clip, near: near)
            add("region-shore", Geography.path(ofLines: edges.coasts, tolerance: tolerance), " stroke-width=\"\(number(Self.regionShoreWidth))\"")
            areaEdges = edges
        }
        add("rivers", Coasts.rivers(within: view, tolerance: tolerance))
        var countryBorders: [[Geography.Point]] = []
        for (name, areas) in [("subdivisions", subdivisions), ("borders", countries)] {
            let borders = Geography.Edges(of: Array(areas.indices), among: areas, within: clip, near: near).borders
            if name == "borders" { countryBorders = borders }
            add(name, Geography.path(ofLines: borders, tolerance: tolerance))
        }
        if let area, let areaEdges {
            // A subdivision's border with another country is that country border where it runs
            // along the subdivision: DCW-GMT's subdivisions and Natural Earth's countries draw
            // it up to 0.05 degree apart, too far for `Edges` to tell it from a coast.
            let international = area.isSubdivision ? Geography.Edges.runs(of: countryBorders, along: near(area), within: clip) : []
            let borders = Geography.path(ofLines: areaEdges.borders + international, tolerance: tolerance)
            if !borders.isEmpty {
                svg += "<path class=\"outline\"\(transform) d=\"\(borders)\"><title>\(escape(isolated(area.name)))</title></path>\n"
            }
        }
        add("sea", shore.sea, " fill-rule=\"evenodd\"")
        return svg
    }

    /// How wide a region's 1:50m coasts are drawn in its own colour under the sea (projected
    /// units: 0.05 degree, about 5 km, so 2.5 km either side: as far as those coasts are off).
    static let regionShoreWidth = 0.5
}

extension Geography.Area {
    /// What tells one area from another: where its first ring lies in the built-in bytes.
    var identity: Int { rings.first?.offset ?? -1 }

    /// Whether `other` is one of this country's subdivisions.
    func encloses(_ other: Geography.Area) -> Bool {
        !isSubdivision && other.isSubdivision && other.parent == code
    }
}
