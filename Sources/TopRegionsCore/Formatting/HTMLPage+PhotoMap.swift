import Foundation
import TopRegionsRecords
import TopRegionsSupport

extension HTMLPage {
    /// The photos on the world outline: `map` (the whole list's, see `ListMap`; the page's
    /// `photos` alone when nil) with each of `photos` a pin whose callout shows its title, the
    /// start of its description and (served) its thumbnail, and leads to the photo.
    /// `snippets`: each photo's `Reports.snippet`, when already cut.
    /// `zoom`: the list and its total, for the links that look closer at the map and back.
    static func photoMap(
        _ photos: [StoredPhoto], map: ListMap? = nil, places: [PlaceLabel] = [], site: Site = .files, snippets: [String]? = nil,
        zoom: (list: PhotoList, total: Int)? = nil
    ) -> String? {
        var text = PageText()
        guard photoMap(photos, map: map, places: places, site: site, snippets: snippets, zoom: zoom, after: "", into: &text) else { return nil }
        return String(decoding: text.bytes, as: UTF8.self)
    }

    /// `photoMap` written into `html` after `opening`: nothing when there is no map (false).
    static func photoMap(
        _ photos: [StoredPhoto], map: ListMap? = nil, places: [PlaceLabel] = [], site: Site = .files, snippets: [String]? = nil,
        zoom: (list: PhotoList, total: Int)? = nil, after opening: String, into html: inout PageText
    ) -> Bool {
        let placed = photos.filter { $0.record.latitude != nil && $0.record.longitude != nil }
        let points = placed.map { MapPoint(latitude: $0.record.latitude!, longitude: $0.record.longitude!) }
        guard let map = map ?? listMap(of: points, places: places) else { return false }
        let controls = zoom.flatMap { zoomControls(list: $0.list, map: map, site: site, total: $0.total) }
        html += opening
        photoMap(photos, on: map, site: site, snippets: snippets, controls: controls, into: &html)
        return true
    }

    /// One photo's locator map: the 3 degrees of latitude around it (its cities, coasts,
    /// borders and places named), its country with that view marked in a corner, and under it
    /// where that is in words ("Near Halifax · Nova Scotia, Canada").
    static func locatorMap(_ photo: StoredPhoto, places: [PlaceLabel], site: Site) -> String? {
        guard let latitude = photo.record.latitude, let longitude = photo.record.longitude,
              let map = listMap(of: [MapPoint(latitude: latitude, longitude: longitude)], places: places, minimumDegrees: 3, inset: true)
        else { return nil }
        let caption = whereWords(latitude: latitude, longitude: longitude).map { "<figcaption dir=\"auto\">\(escape($0))</figcaption>\n" }
        var text = PageText()
        photoMap([photo], on: map, site: site, controls: caption.map { ("", $0) }, into: &text)
        return String(decoding: text.bytes, as: UTF8.self)
    }

    private static func photoMap(
        _ photos: [StoredPhoto], on map: ListMap, site: Site, snippets: [String]? = nil, controls: (overlay: String, caption: String)? = nil,
        into html: inout PageText
    ) {
        let (x, y, width, height, xScale) = (map.x, map.y, map.width, map.height, map.xScale)
        let (overlay, caption) = controls ?? ("", "")
        html += "<figure class=\"map photo-map\">\n<div class=\"frame\">\n"
        html += map.svg
        html += overlay
        // The page's photos as pins over the map, placed in percent of its frame; written
        // piece by piece into the page's bytes, as the cards are.
        for (index, photo) in photos.enumerated() where photo.record.latitude != nil && photo.record.longitude != nil {
            let record = photo.record
            let left = (projectX(record.longitude!) * xScale - x) / width * 100
            let top = (projectY(record.latitude!) - y) / height * 100
            let title = record.title.isEmpty ? "(untitled)" : record.title
            html += "<a class=\"pin\" href=\""
            html.escaping(site.isServed ? site.photo(record.id) : "#photo-" + anchor(record.id))
            html += "\" style=\"left:"
            html += number(left, places: 4)
            html += "%;top:"
            html += number(top, places: 4)
            html += "%\"><span class=\"callout\">"
            if site.isServed, record.thumbURL != nil {
                html += "<img src=\""
                html += site.thumbnail(record.id)
                html += "\" loading=\"lazy\" alt=\"\" width=\"75\" height=\"75\">"
            }
            html += "<b dir=\"auto\">"
            html.escaping(title)
            html += "</b>"
            let description = snippets?[index] ?? Reports.snippet(record.description)
            if !description.isEmpty {
                html += "<span dir=\"auto\">"
                html.escaping(description)
                html += "</span>"
            }
            html += "</span></a>\n"
        }
        html += map.over
        html += map.inset
        html += "</div>\n"
        html += caption
        html += "</figure>\n"
    }
}
