import Foundation
import TopRegionsRecords
import TopRegionsSupport

extension HTMLPage {
    /// A point of a list's map: a position, and how many photos are there.
    public typealias MapPoint = MapSpot

    /// A place's name where it lies, drawn on a region's map to give a person their
    /// bearings where the world outline shows nothing (a city's streets are all land).
    public typealias PlaceLabel = PlaceLabelInfo

    /// A list's map without its page's pins: the world outline framed on the GeoJSON bounding
    /// box of every photo of the list, a dot for each, and the list's places named where they
    /// lie. The same for every page of the list, so it is drawn once and kept with the list
    /// (a region of 15,000 photos draws thousands of dots); each page adds its 30 pins.
    public struct ListMap: Sendable {
        /// `<svg>` … `</svg>`: the land, the water, the borders and the dots.
        let svg: String
        /// The same view's counted clusters and names, in an `<svg>` of their own laid over
        /// the page's pins (so a pin never hides a cluster's number or a city's name, and
        /// takes clicks through it); empty when it has neither.
        let over: String
        /// The locator inset, over all (empty when the map has none).
        let inset: String
        /// The view in projected units, and the longitudes' scale, to place the pins.
        let x: Double, y: Double, width: Double, height: Double, xScale: Double
        /// The parts of it worth looking closer at (`zoomQuarters`), found once with the map.
        let quarters: [GeoBox]

        init(svg: String, over: String, inset: String, x: Double, y: Double, width: Double, height: Double, xScale: Double, points: [MapPoint]) {
            (self.svg, self.over, self.inset) = (svg, over, inset)
            (self.x, self.y, self.width, self.height, self.xScale) = (x, y, width, height, xScale)
            quarters = HTMLPage.quarters(of: (x, y, width, height, xScale), holding: points)
        }

        /// The whole drawing, as a page carries it (pins aside).
        var drawing: String { svg + over + inset }

        /// What it takes in memory, about.
        public var bytes: Int { svg.utf8.count + over.utf8.count + inset.utf8.count + 64 + 32 * quarters.count }
    }

    /// The map of `points` (every photo of a list) with `places` named; nil when no photo is
    /// placed. `minimumDegrees`: the least latitude the view spans, so a lone photo still has
    /// land and sea around it. `inset`: a small map in a corner with the view marked on it
    /// (its country, or the world when the view is not much smaller), so a person sees where
    /// the view is (a locator map, as a photo's page has). `outline`: the country or
    /// subdivision that holds most of the points drawn emphasised (a region's map).
    /// `frame`: the box the map shows (a zoomed map's), whatever the points; nil: framed on
    /// the points (and the subdivision outlined).
    public static func listMap(
        of points: [MapPoint], places: [PlaceLabel] = [], minimumDegrees: Double = 0.3, inset: Bool = false, outline: Bool = false,
        frame: GeoBox? = nil
    ) -> ListMap? {
        let features = points.map { Reports.GeoFeature(id: "", longitude: $0.longitude, latitude: $0.latitude, properties: []) }
        // The photos' box (a zoomed map's may hold none: its frame then).
        guard let box = Reports.boundingBox(features) ?? frame.map({ [$0.west, $0.south, $0.east, $0.north] }) else { return nil }
        var (west, south, east, north) = frame.map { ($0.west, $0.south, $0.east, $0.north) } ?? (box[0], box[1], box[2], box[3])
        let minimumDegrees = frame == nil ? minimumDegrees : 0
        // The subdivision that holds the photos is the map's subject: the view takes in whole the
        // parts of it the photos are on (not one across the antimeridian, whose box would be the
        // world).
        let projected = outline ? points.map { Geography.Point(x: projectX($0.longitude), y: projectY($0.latitude)) } : []
        let area = outline ? Geography.area(holdingMostOf: projected) : nil
        if frame == nil, let area, area.isSubdivision, let held = area.bounds(ofRingsHolding: projected), held.width < 600 {
            west = min(west, held.minX / 10 - 180)
            east = max(east, held.maxX / 10 - 180)
            north = max(north, 90 - held.minY / 10)
            south = min(south, 90 - held.maxY / 10)
            // A margin, so its coasts and borders do not run along the frame.
            let (padX, padY) = ((east - west) * 0.04, (north - south) * 0.04)
            (west, east, south, north) = (west - padX, east + padX, south - padY, north + padY)
        }
        // Equirectangular, with longitudes shrunk by the cosine of the middle latitude so
        // the region keeps its shape; the view is the box widened in its short direction
        // (centred) to the map's 4:3 frame, and to at least `minimumDegrees` of latitude.
        let xScale = max(cos((south + north) / 2 * .pi / 180), 0.2)
        var (x, y, width, height) = fourByThree(
            x: projectX(west) * xScale, y: projectY(north), width: (east - west) * 10 * xScale, height: (north - south) * 10)
        let least = minimumDegrees * 10
        if height < least {
            x -= (least * 4 / 3 - width) / 2
            y -= (least - height) / 2
            (width, height) = (least * 4 / 3, least)
        }
        let r = width * 0.008
        let (dots, clusters, discs) = spotsAndClusters(points, xScale: xScale, r: r)
        if frame == nil {
            // A disc at the frame's edge is drawn whole: the frame widens (about its middle, kept
            // 4:3) to take it in. Regression: Auckland's disc was cut in half at 180 degrees.
            var overflow = 0.0
            for disc in discs {
                let left: Double = x - (disc.x - disc.radius), right: Double = disc.x + disc.radius - (x + width)
                let top: Double = (y - (disc.y - disc.radius)) * 4 / 3, bottom: Double = (disc.y + disc.radius - (y + height)) * 4 / 3
                overflow = max(overflow, left, right, top, bottom)
            }
            if overflow > 0 {
                let more = 2 * overflow
                (x, y, width, height) = (x - more / 2, y - more * 3 / 8, width + more, height + more * 3 / 4)
            }
        }
        // The view in the geography's (unscaled) units; the 1:50m geography for any view
        // smaller than a continent, the world outline beyond.
        let view = Geography.Bounds(minX: x / xScale, minY: y, maxX: (x + width) / xScale, maxY: y + height)
        let detailed = height < detailedBelow
        let tolerance = height / 400
        // A city's view is drawn over the high-resolution coasts: its land is the whole frame,
        // and `shoreLayers` draws the sea over what is drawn on it.
        let shore = height < shoreBelow ? Coasts.sea(within: view, tolerance: tolerance) : nil
        var svg = mapOpening(
            viewBox: (x, y, width, height), xScale: xScale, graticule: false, label: "Map of the photos",
            extra: " data-bbox=\"\(box.map(JSONWriter.format).joined(separator: ","))\"",
            land: shore?.frame ?? (detailed ? Geography.land(within: view, tolerance: tolerance) : WorldOutline.path(within: (view.minX, view.minY, view.width, view.height))))
        let transform = xScale == 1 ? "" : " transform=\"scale(\(number(xScale, places: 4)) 1)\""
        if let shore {
            svg += shoreLayers(area: area, shore: shore, view: view, tolerance: tolerance, transform: transform)
        } else if detailed {
            svg += detailedLayers(area: area, view: view, tolerance: tolerance, transform: transform)
        }
        svg += dots + "</svg>\n"
        var over = clusters
        if detailed || !places.isEmpty {
            // No name where the inset hides it.
            let keepOut = inset
                ? Geography.Bounds(minX: x + width * (1 - insetCovers.width), minY: y + height * (1 - insetCovers.height), maxX: x + width, maxY: y + height)
                : nil
            over += labels(
                cities: detailed ? Geography.cities(within: view) : [], places: places, discs: discs,
                x: x, y: y, width: width, height: height, xScale: xScale, keepOut: keepOut)
        }
        if !over.isEmpty {
            let box = [x, y, width, height].map { number($0) }.joined(separator: " ")
            over = "<svg class=\"over\" viewBox=\"\(box)\" aria-hidden=\"true\">\n" + over + "</svg>\n"
        }
        return ListMap(
            svg: svg, over: over, inset: inset ? locatorInset(view: view) : "",
            x: x, y: y, width: width, height: height, xScale: xScale, points: points)
    }

    /// What a map from 2 to 40 degrees tall draws over the 1:50m land: the region's area
    /// lighter than the land around it, then water over both, the subdivisions' borders, and
    /// the area's outline over all (so drawn twice: its fill under the rivers, its line above
    /// them).
    static func detailedLayers(area: Geography.Area?, view: Geography.Bounds, tolerance: Double, transform: String) -> String {
        var svg = ""
        let outline = area.map { Geography.path(of: [$0], within: view, tolerance: tolerance, holes: true) } ?? ""
        if !outline.isEmpty { svg += "<path class=\"region\" fill-rule=\"evenodd\"\(transform) d=\"\(outline)\"/>\n" }
        let lakes = Geography.lakes(within: view, tolerance: tolerance)
        if !lakes.isEmpty { svg += "<path class=\"lakes\"\(transform) d=\"\(lakes)\"/>\n" }
        let rivers = Geography.rivers(within: view, tolerance: tolerance)
        if !rivers.isEmpty { svg += "<path class=\"rivers\"\(transform) d=\"\(rivers)\"/>\n" }
        let lines = Geography.subdivisions(within: view, tolerance: tolerance)
        if !lines.isEmpty { svg += "<path class=\"subdivisions\"\(transform) d=\"\(lines)\"/>\n" }
        if let area, !outline.isEmpty {
            svg += "<path class=\"outline\"\(transform) d=\"\(outline)\"><title>\(escape(isolated(area.name)))</title></path>\n"
        }
        return svg
    }

    /// The box widened in its short direction, about its middle, to a map's 4:3 frame.
    static func fourByThree(
        x: Double, y: Double, width: Double, height: Double
    ) -> (x: Double, y: Double, width: Double, height: Double) {
        3 * width > 4 * height
            ? (x, y - (width * 3 / 4 - height) / 2, width, width * 3 / 4)
            : (x - (height * 4 / 3 - width) / 2, y, height * 4 / 3, height)
    }

    /// Views less than this many projected units (0.1 degree) high are drawn from the 1:50m
    /// geography, with subdivisions and cities; larger ones from the world outline.
    static let detailedBelow = 400.0

    /// Views less than this many projected units high (2 degrees: a city's, a small
    /// subdivision's, a zoomed part of a region) are drawn over the high-resolution coasts.
    static let shoreBelow = 20.0

    /// How many photos at one spot make it a counted cluster rather than a dot.
    static let clusterMinimum = 10

    /// Every photo of a list on its map: photos closer than a dot's radius `r` share a spot;
    /// a spot with `clusterMinimum` photos or more is a counted cluster (a disc growing with
    /// the count's logarithm, the number on it) that takes in the spots under it, biggest
    /// first, so a city of 10,000 photos is a number, not a blot of dots. The rest are dots.
    static func spotsAndClusters(_ points: [MapPoint], xScale: Double, r: Double) -> (dots: String, clusters: String, discs: [Disc]) {
        var spots: [(x: Double, y: Double, photos: Int)] = []
        var spotOfCell: [Int64: Int] = [:]
        for point in points {
            let x = projectX(point.longitude) * xScale, y = projectY(point.latitude)
            let cell = Int64((x / r).rounded()) << 32 ^ Int64((y / r).rounded())
            if let index = spotOfCell[cell] {
                spots[index].photos += point.photos
            } else {
                spotOfCell[cell] = spots.count
                spots.append((x, y, point.photos))
            }
        }
        func radius(_ photos: Int) -> Double { r * min(1 + 0.5 * log2(Double(photos)), 4) }
        var taken = [Bool](repeating: false, count: spots.count)
        var clusters: [(x: Double, y: Double, photos: Int, radius: Double)] = []
        for seed in spots.indices.sorted(by: { spots[$0].photos > spots[$1].photos }) {
            guard spots[seed].photos >= clusterMinimum else { break }
            guard !taken[seed] else { continue }
            let (x, y) = (spots[seed].x, spots[seed].y)
            // Clusters never pile up: a spot at a bigger disc's edge (within a dot's reach of
            // it) joins it; one further off is a disc of its own, no larger than fits beside
            // the others. Regression: a disc that would overlap a bigger one joined it from
            // up to 8 dots away, so on the world's map Saint Petersburg's photos were counted
            // in a disc on Krasnodar.
            var reach = radius(spots[seed].photos)
            var joined: Int?
            for index in clusters.indices {
                let (dx, dy) = (clusters[index].x - x, clusters[index].y - y)
                let room = (dx * dx + dy * dy).squareRoot() - clusters[index].radius
                if room < r {
                    joined = index
                    break
                }
                reach = min(reach, room)
            }
            if let joined {
                taken[seed] = true
                clusters[joined].photos += spots[seed].photos
                continue
            }
            var photos = 0
            for index in spots.indices where !taken[index] {
                let (dx, dy) = (spots[index].x - x, spots[index].y - y)
                guard dx * dx + dy * dy <= reach * reach else { continue }
                taken[index] = true
                photos += spots[index].photos
            }
            clusters.append((x, y, photos, min(radius(photos), reach)))
        }
        var dots = "<g class=\"dots\">\n"
        for (index, spot) in spots.enumerated() where !taken[index] {
            dots += "<circle class=\"dot\" cx=\"\(number(spot.x))\" cy=\"\(number(spot.y))\" r=\"\(number(r * 0.6))\"/>\n"
        }
        dots += "</g>\n"
        guard !clusters.isEmpty else { return (dots, "", []) }
        var svg = "<g class=\"clusters\">\n"
        for cluster in clusters {
            let count = String(cluster.photos)
            // Sized by the photos under it, not those of discs that joined it (so it never
            // grows over another); the number fits the disc (about 0.6 em a digit).
            let discRadius = cluster.radius
            let fontSize = min(discRadius * 0.9, discRadius * 1.7 / (Double(count.count) * 0.6))
            svg += "<g class=\"cluster\"><title>\(Self.count(cluster.photos, "photo"))</title>"
            svg += "<circle cx=\"\(number(cluster.x))\" cy=\"\(number(cluster.y))\" r=\"\(number(discRadius))\"/>"
            svg += "<text x=\"\(number(cluster.x))\" y=\"\(number(cluster.y))\" font-size=\"\(number(fontSize))\">\(count)</text></g>\n"
        }
        svg += "</g>\n"
        return (dots, svg, clusters.map { Disc(x: $0.x, y: $0.y, radius: $0.radius) })
    }

    /// Text from Flickr inside a first-strong isolate, for places where it cannot be put in an
    /// element of its own (an SVG `<title>` or `<text>`): a right-to-left override in a name
    /// then ends with the name, and the counts after it read in their own order.
    static func isolated(_ text: String) -> String {
        "\u{2068}" + text + "\u{2069}"
    }

    /// `<svg>` with the land (and a graticule on world maps) already drawn.
    static func mapOpening(
        viewBox: (x: Double, y: Double, width: Double, height: Double), xScale: Double, graticule: Bool,
        label: String, extra: String, land: String = WorldOutline.path
    ) -> String {
        let box = [viewBox.x, viewBox.y, viewBox.width, viewBox.height].map { number($0) }.joined(separator: " ")
        var svg = "<svg viewBox=\"\(box)\" role=\"img\" aria-label=\"\(label)\"\(extra)>\n"
        svg += "<rect class=\"sea\" x=\"\(number(viewBox.x))\" y=\"\(number(viewBox.y))\" width=\"\(number(viewBox.width))\" height=\"\(number(viewBox.height))\"/>\n"
        if graticule {
            var lines = ""
            for longitude in stride(from: -150, through: 150, by: 30) {
                lines += "M\(number(projectX(Double(longitude)))) 0V\(WorldOutline.height)"
            }
            for latitude in stride(from: -60, through: 60, by: 30) {
                lines += "M0 \(number(projectY(Double(latitude))))H\(WorldOutline.width)"
            }
            svg += "<path class=\"graticule\" d=\"\(lines)\"/>\n"
        }
        let transform = xScale == 1 ? "" : " transform=\"scale(\(number(xScale, places: 4)) 1)\""
        svg += "<path class=\"land\"\(transform) d=\"\(land)\"/>\n"
        return svg
    }

    static func projectX(_ longitude: Double) -> Double { (longitude + 180) * 10 }
    static func projectY(_ latitude: Double) -> Double { (90 - latitude) * 10 }
}
