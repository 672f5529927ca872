import Foundation
import TopRegionsRecords
import TopRegionsSupport

extension HTMLPage {
    // MARK: Names and links

    /// The file a region's page is expected in, beside the top-regions page that links to
    /// it: `region-<id>.html` when the id is letters, digits, '.', '-' and '_' (Flickr's place
    /// ids are), else `region-` and the id's safe file name (`SafeName`). The list's later
    /// pages add `+<page>` before `.html`: no id's name holds a '+', so no two pages share a
    /// name.
    /// A zoomed map's pages (`view`) are named with its box: `region-ID~W,S,E,N.html`.
    public static func regionPageName(_ regionID: String, page: Int = 1, view: GeoBox? = nil) -> String {
        let plain = !regionID.isEmpty && regionID.count <= 100
            && regionID.unicodeScalars.allSatisfy { SafeName.isSafe($0) || $0 == "." }
        var name = "region-" + (plain ? regionID : String(SafeName.fileName(for: regionID, extension: "html").dropLast(5)))
        if let view { name += "~" + view.text }
        return name + (page > 1 ? "+\(page)" : "") + ".html"
    }

    /// The file of a region's feed, beside its page: region-ID.atom.
    public static func regionFeedName(_ regionID: String) -> String {
        String(regionPageName(regionID).dropLast(5)) + ".atom"
    }

    /// The file of a list that is not a region's (`all`, `recents`), on `page`.
    static func listPageName(_ list: String, page: Int) -> String {
        page > 1 ? "\(list)+\(page).html" : "\(list).html"
    }

    /// The MIME type of image bytes, by their magic numbers; nil when they are no image a
    /// browser shows (the page then shows a placeholder).
    public static func imageType(of bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) { return "image/gif" }
        return nil
    }

    static func flickrPage(owner: String, photoID: String) -> String {
        guard !owner.isEmpty else { return "https://www.flickr.com/photo.gne?id=" + percentEncoded(photoID) }
        return "https://www.flickr.com/photos/\(percentEncoded(owner, keeping: "@"))/\(percentEncoded(photoID))"
    }

    /// A file: URL for an absolute path, every byte but unreserved ones and '/' encoded.
    static func fileURL(_ path: String) -> String {
        "file://" + percentEncoded(path, keeping: "/")
    }

    static func percentEncoded(_ text: String, keeping kept: Character? = nil) -> String {
        let kept = kept?.asciiValue
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            case kept:
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(upperHexDigits[Int(byte >> 4)])
                out.append(upperHexDigits[Int(byte & 15)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let upperHexDigits = Array("0123456789ABCDEF".utf8)

    /// An element id for a photo: its safe file name without the extension.
    static func anchor(_ photoID: String) -> String {
        String(SafeName.fileName(for: photoID, extension: "x").dropLast(2))
    }

    /// A word a POSIX shell reads back as `text`: bare when plain, else single-quoted.
    static func shellWord(_ text: String) -> String {
        if !text.isEmpty, text.unicodeScalars.allSatisfy({ SafeName.isSafe($0) || $0 == "." || $0 == "/" || $0 == "," }) {
            return text
        }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
