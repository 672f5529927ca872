import Foundation
import HTTPTypes
import Testing
@testable import TopRegionsServer

/// When a served feed last changed (its Last-Modified), and what a reader asking
/// If-Modified-Since is answered.
@Suite struct FeedChangesTests {
    static func request(ifModifiedSince seconds: Int64) -> HTTPFields {
        var fields = HTTPFields()
        fields[HTTPField.Name("If-Modified-Since")!] = Responses.httpDate(seconds)
        return fields
    }

    /// A feed's time is when its content was first served, whatever its `<updated>` says: a
    /// photo deleted from it, or a title changed, moves no upload time. Regression: a reader
    /// sending back the Last-Modified it had was told 304 after such changes.
    @Test func aFeedChangedAtAnyTimeIsSentWholeToAReaderGoingByItsTime() {
        let changes = FeedChanges()
        let first: [UInt8] = Array("<feed><updated>2025-11-22T08:20:00Z</updated>one</feed>".utf8)
        let second: [UInt8] = Array("<feed><updated>2025-11-22T08:20:00Z</updated>two</feed>".utf8)
        let t0: Int64 = 1_800_000_000
        let seen = changes.since("/feeds/a", content: Responses.fnv1a(first), now: t0)
        #expect(seen == t0)
        // The same content later keeps its time: 304 for a reader that has it.
        let again = changes.since("/feeds/a", content: Responses.fnv1a(first), now: t0 + 60)
        #expect(again == t0)
        #expect(Responses.feed(first, hash: Responses.fnv1a(first), headers: Self.request(ifModifiedSince: t0), changed: again, now: t0 + 60).status == .notModified)
        // Changed content: its own time, and the reader with the old one gets it whole.
        let changed = changes.since("/feeds/a", content: Responses.fnv1a(second), now: t0 + 120)
        #expect(changed == t0 + 120)
        let answer = Responses.feed(second, hash: Responses.fnv1a(second), headers: Self.request(ifModifiedSince: t0), changed: changed, now: t0 + 120)
        #expect(answer.status == .ok && answer.headers[HTTPField.Name("Last-Modified")!] == Responses.httpDate(t0 + 120))
        // Another feed is another key.
        #expect(changes.since("/feeds/b", content: Responses.fnv1a(first), now: t0 + 130) == t0 + 130)
    }

    /// Two contents in the same second: the second is a second later, never told 304 to a
    /// reader of the first, and no Last-Modified ahead of the response's own time is sent.
    @Test func twoChangesInOneSecondAreNeverConfused() {
        let changes = FeedChanges()
        let t0: Int64 = 1_800_000_000
        let one: [UInt8] = Array("one".utf8), two: [UInt8] = Array("two".utf8)
        #expect(changes.since("k", content: Responses.fnv1a(one), now: t0) == t0)
        let next = changes.since("k", content: Responses.fnv1a(two), now: t0)
        #expect(next == t0 + 1)
        let answer = Responses.feed(two, hash: Responses.fnv1a(two), headers: Self.request(ifModifiedSince: t0), changed: next, now: t0)
        #expect(answer.status == .ok && answer.headers[HTTPField.Name("Last-Modified")!] == nil)
        #expect(Responses.feed(two, hash: Responses.fnv1a(two), headers: HTTPFields(), changed: next, now: t0 + 1).headers[HTTPField.Name("Last-Modified")!]
            == Responses.httpDate(t0 + 1))
    }
}
