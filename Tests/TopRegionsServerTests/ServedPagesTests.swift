import Foundation
import Testing
import TopRegionsRecords
import TopRegionsStore
import TopRegionsTestSupport

/// The served pages, in process: what each list shows, page by page, against the photos loaded.
@Suite struct ServedPagesTests {
    typealias Fixture = ServedFixture

    @Test func theTopRegionsPageListsTheRegionsInTheirOrderWithTheirCounts() async throws {
        let fixture = try Fixture()
        let top = try fixture.queries.topRegions(limit: 50)
        #expect(top.count == 50)
        try await fixture.serve { client in
            let page = try await client.get("/")
            #expect(page.status == 200)
            #expect(page.header("Content-Type") == "text/html; charset=utf-8")
            #expect(page.header("Content-Security-Policy")?.contains("script-src 'none'") == true)
            #expect(page.header("Cache-Control") == "no-store")
            // Every region regions-top lists, in its order, linking to its photos: the map's
            // markers (largest first), then the ranked list.
            let links = PageText.attributes("href", in: page.text).filter { $0.hasPrefix("/regions/") }
            let expected = top.map { "/regions/\($0.regionID)" }
            #expect(Array(links.suffix(expected.count)) == expected)
            #expect(links.prefix(links.count - expected.count).sorted() == expected.sorted())
            // Its counts, as the photos loaded give them.
            for row in top {
                let counted = try #require(Fixture.recount.regions[row.regionID])
                #expect(page.text.contains("<td class=\"n\">\(counted.photographers)</td><td class=\"n\">\(counted.photos)</td>"), "\(row.regionID)")
            }
            #expect(page.text.contains("This product uses the Flickr API but is not endorsed or certified by SmugMug, Inc."))
        }
        // Nothing of the page was fetched from Flickr.
        #expect(fixture.network.requests.isEmpty)
    }

    @Test func aRegionIsShownThirtyPhotosToAPageWithItsWholeCountAndMap() async throws {
        let fixture = try Fixture()
        let row = try #require(try fixture.queries.topRegions(limit: 50).first { $0.photos > 60 })
        let regionID = row.regionID
        let counted = try #require(Fixture.recount.regions[regionID])
        // The region's photos, newest first, as regions-top --region lists them.
        let expected = try fixture.queries.photos(in: PhotoList(.region(row)), limit: nil)
        #expect(Set(expected.map(\.record.id)) == Fixture.recount.ids(inRegion: regionID))
        #expect(zip(expected, expected.dropFirst()).allSatisfy { ($0.record.uploaded ?? 0) >= ($1.record.uploaded ?? 0) }, "newest first")
        let byTitle = try fixture.queries.photos(in: PhotoList(.region(row), order: .title), limit: 30).map(\.record.id)
        let total = counted.photos
        try await fixture.serve { client in
            let pages = (total + 29) / 30
            var seen: [String] = []
            for number in 1...pages {
                let page = try await client.get("/regions/\(regionID)" + (number > 1 ? "?page=\(number)" : ""))
                #expect(page.status == 200)
                let cards = Fixture.cards(page.text)
                #expect(cards.count == min(30, total - (number - 1) * 30))
                seen += cards
                #expect(page.text.contains("\(total) photos by \(counted.photographers) photographers; \((number - 1) * 30 + 1)–\((number - 1) * 30 + cards.count) here"))
                #expect(page.text.contains("rel=\"prev\"") == (number > 1))
                #expect(page.text.contains("rel=\"next\" href=\"/regions/\(regionID)?page=\(number + 1)\"") == (number < pages))
                // Each card: its thumbnail asked for lazily, its page here, its page on Flickr.
                #expect(PageText.occurrences("loading=\"lazy\"", in: page.text) >= cards.count)
                #expect(PageText.occurrences("<a class=\"flickr\" href=\"https://www.flickr.com/photos/", in: page.text) == cards.count)
                // The map's dots cover the whole region on every page; its pins are this page's.
                #expect(PageText.occurrences("<a class=\"pin\"", in: page.text) == cards.count)
            }
            #expect(seen == expected.map(\.record.id), "the pages, in order, are the region's photos newest first, each once")
            let beyond = try await client.get("/regions/\(regionID)?page=\(pages + 1)")
            #expect(beyond.status == 404 && beyond.text.contains("page \(pages)"))
            #expect(try await client.get("/regions/\(regionID)?page=0").status == 400)
            #expect(try await client.get("/regions/\(regionID)?sort=size").status == 400)

            // By title: alphabetical headings, and the order regions-top --sort title gives.
            let titled = try await client.get("/regions/\(regionID)?sort=title")
            #expect(Fixture.cards(titled.text) == byTitle)
            #expect(titled.text.contains("<h2 class=\"section\" dir=\"auto\">"))
            #expect(titled.text.contains("rel=\"next\" href=\"/regions/\(regionID)?sort=title&amp;page=2\""))
        }
        #expect(fixture.network.requests.isEmpty)
    }

    @Test func allRecentsAndSearchArePagedListsToo() async throws {
        let fixture = try Fixture()
        let stored = Fixture.stored
        let word = "harbour"
        let found = try fixture.queries.search(try SearchQuery(word), limit: nil).map(\.record.id)
        #expect(found.count > 60)
        let top = try #require(try fixture.queries.topRegions(limit: 1).first)
        try await fixture.serve { client in
            let all = try await client.get("/all")
            #expect(all.status == 200 && all.text.contains("\(stored) photos stored; 1–30 here"))
            let recents = try await client.get("/recents")
            #expect(recents.status == 200 && recents.text.contains("No photo has been viewed yet"))

            let search = try await client.get("/search?q=\(word)")
            #expect(search.status == 200)
            #expect(search.text.contains("\(found.count) photos matching <q>\(word)</q>"))
            #expect(Fixture.cards(search.text) == Array(found.prefix(30)))
            let second = try await client.get("/search?q=\(word)&page=2")
            #expect(Fixture.cards(second.text) == Array(found.dropFirst(30).prefix(30)))
            // The search language's mistakes are said in words, not SQL.
            let unclosed = try await client.get("/search?q=%22harbour")
            #expect(unclosed.status == 400 && !unclosed.text.contains("fts5"))
            // Regressions: FTS5's own words ("syntax error near "NEAR"", "unterminated string")
            // reached the page for a word beside a group and for a NUL.
            for query in ["NEAR(harbour%20boat)", "harbour%00boat", "(harbour)%20boat"] {
                let answer = try await client.get("/search?q=" + query)
                #expect(answer.status == 200 && !answer.text.contains("syntax error") && !answer.text.contains("unterminated"), "\(query)")
            }
            // A malformed escape is named, not dropped with every other parameter.
            let malformed = try await client.get("/search?q=harbour&page=%zz")
            #expect(malformed.status == 400 && malformed.text.contains("<q>page=%zz</q> is not readable"), "\(malformed.text)")
            // A search that finds nothing offers the word a typo away, and orders nothing.
            let typo = try await client.get("/search?q=habour")
            #expect(typo.status == 200 && typo.text.contains("No photo matches <q>habour</q>"), "\(typo.text)")
            #expect(typo.text.contains("Did you mean <a href=\"/search?q=harbour\"><q dir=\"auto\">harbour</q></a>?"), "\(typo.text)")
            #expect(!typo.text.contains("best match first"))
            // A region named in the words is offered.
            let named = try await client.get("/search?q=" + top.name.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
            #expect(named.text.contains("The region <a href=\"/regions/\(top.regionID)\""))
        }
    }
}
