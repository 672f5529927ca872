import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TopRegionsFormatting
import TopRegionsPages
import TopRegionsRecords
import TopRegionsStore

/// Atom feeds, for feed readers, which poll: a region's newest photos (`/feeds/regions/ID`)
/// and the rising regions (`/feeds/rising`), each in the window the address asks for, with
/// an ETag and a Last-Modified so a reader that has the feed already is answered 304.
extension ServedApp {
    func regionFeed(_ regionID: String, query: [(String, String)], headers: HTTPFields, authority: String?) async throws -> Response {
        let window = try await window(query)
        let queries = self.queries
        guard let region = try await reads.run({ try queries.region(id: regionID, window: window) }) else {
            throw HTTPAnswer.notFound("No region has the id <q>\(HTMLPage.escape(String(regionID.prefix(80))))</q>.")
        }
        let list = PhotoList(.region(region), window: window)
        let base = Self.base(authority)
        let site = self.site.windowed(window?.lengthText), now = Int64(self.now()), times = self.times
        let links = AtomFeed.Links(
            feed: base + site.feed(regionID: regionID), page: base + site.region(regionID),
            region: { base + site.region($0) })
        let feed = try await reads.run {
            AtomFeed.photos(try queries.photos(in: list, limit: Paging.size), list: list, links: links, now: now, times: times)
        }
        return Responses.feed(feed, headers: headers, key: site.feed(regionID: regionID), changes: feedChanges, now: now)
    }

    func risingFeed(query: [(String, String)], headers: HTTPFields, authority: String?) async throws -> Response {
        let window = try risingWindow(query)
        let queries = self.queries, base = Self.base(authority), site = self.site, times = self.times
        let links = AtomFeed.Links(
            feed: base + site.risingFeed(window: window.lengthText), page: base + site.rising(window: window.lengthText),
            region: { base + site.windowed(window.lengthText).region($0) })
        let changes = feedChanges, now = Int64(self.now())
        let feed = try await reads.run {
            let answer = try RisingAnswer(window, queries, limit: 50, times: times)
            return AtomFeed.rising(answer.rows, window: window, links: links, times: times, notes: answer.notes(times)) { id, content in
                changes.since(id, content: Responses.fnv1a(Array(content.utf8)), now: now)
            }
        }
        return Responses.feed(feed, headers: headers, key: site.risingFeed(window: window.lengthText), changes: changes, now: now)
    }

    /// This server's address as the request named it (its Host, which `HostCheck` let in).
    static func base(_ authority: String?) -> String {
        "http://" + (authority ?? "localhost")
    }
}

extension Responses {
    /// A feed, or 304 when the reader's copy is this one: by its ETag (a hash of its bytes),
    /// or, without If-None-Match, by its Last-Modified: when these bytes were first served
    /// at `key` (`changes`), not sent while that is still ahead of `now`.
    static func feed(_ bytes: [UInt8], headers request: HTTPFields, key: String, changes: FeedChanges, now: Int64) -> Response {
        let hash = fnv1a(bytes)
        return feed(bytes, hash: hash, headers: request, changed: changes.since(key, content: hash, now: now), now: now)
    }

    static func feed(_ bytes: [UInt8], hash: UInt64, headers request: HTTPFields, changed: Int64, now: Int64) -> Response {
        var headers = common(contentType: "application/atom+xml; charset=utf-8")
        let tag = "\"" + String(hash, radix: 16) + "\""
        headers[.eTag] = tag
        let lastModified = changed <= now ? changed : nil
        if let lastModified { headers[.lastModified] = httpDate(lastModified) }
        // Readers poll: they may keep it, and must ask again each time.
        headers[.cacheControl] = "no-cache"
        if let asked = request[.ifNoneMatch] {
            let tags = asked.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if tags.contains("*") || tags.contains(where: { $0 == tag || $0 == "W/" + tag }) {
                return Response(status: .notModified, headers: headers)
            }
        } else if let since = request[.ifModifiedSince].flatMap(parseHTTPDate), let lastModified, lastModified <= since {
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }

    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// "Sat, 22 Nov 2025 08:20:00 GMT" (RFC 9110's IMF-fixdate).
    static func httpDate(_ seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// An IMF-fixdate read back; nil for anything else (then the feed is sent whole).
    static func parseHTTPDate(_ text: String) -> Int64? {
        let words = text.split(separator: " ")
        guard words.count == 6, words[5] == "GMT", let month = months.firstIndex(of: String(words[2])),
              let day = Int32(words[1]), let year = Int32(words[3]) else { return nil }
        let clock = words[4].split(separator: ":").compactMap { Int32($0) }
        guard clock.count == 3 else { return nil }
        return utc(year: year, month: Int32(month + 1), day: day, hour: clock[0], minute: clock[1], second: clock[2])
    }

    static func utc(year: Int32, month: Int32, day: Int32, hour: Int32, minute: Int32, second: Int32) -> Int64 {
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = month - 1
        parts.tm_mday = day
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_sec = second
        return Int64(timegm(&parts))
    }
}

extension HTTPField.Name {
    static let lastModified = HTTPField.Name("Last-Modified")!
    static let ifModifiedSince = HTTPField.Name("If-Modified-Since")!
}
