import Foundation
import Testing
@testable import TopRegionsFormatting
import TopRegionsPages
import TopRegionsRecords
import TopRegionsStore
import TopRegionsTestSupport

/// Looking closer at a map: a box in the address (`bbox=west,south,east,north`), the list
/// beside the map keeping to the photos inside it (count, pages and order as the whole
/// list's), and the links in and out.
@Suite struct ZoomTests {
    @Test(arguments: [
        ("-64,44,-62.5,45", "-64,44,-62.5,45"), ("-63.123456,44.000001,-62,45", "-63.12346,44,-62,45"),
        ("-180,-90,180,90", "-180,-90,180,90"), ("0,0,1,0.01", "0,0,1,0.01"),
    ])
    func aBoxIsReadAndWrittenTheSameWayEveryTime(_ text: String, _ written: String) throws {
        #expect(try GeoBox(parsing: text).text == written)
        #expect(try GeoBox(parsing: written) == GeoBox(parsing: GeoBox(parsing: written).text))
    }

    @Test(arguments: [
        ("", "is not four decimal numbers"), ("1,2,3", "is not four decimal numbers"), ("1,2,3,4,5", "is not four decimal numbers"),
        ("a,2,3,4", "is not four decimal numbers"), ("1e2,0,3,4", "is not four decimal numbers"), ("nan,0,1,1", "is not four decimal numbers"),
        (" 1,2,3,4", "is not four decimal numbers"), ("1,,3,4", "is not four decimal numbers"),
        ("3,0,1,1", "west must be less than east"), ("-181,0,1,1", "west must be less than east"), ("0,0,0,1", "west must be less than east"),
        ("0,1,1,0", "south must be less than north"), ("0,-91,1,1", "south must be less than north"),
        ("0,0,1,0.005", "less than 0.01 degree"),
    ])
    func aBoxThatCannotBeShownSaysWhatWouldWork(_ text: String, _ reason: String) {
        #expect {
            _ = try GeoBox(parsing: text)
        } throws: { error in
            guard let problem = error as? GeoBox.Problem else { return false }
            return problem.message.contains(reason) && problem.message.hasSuffix("write west,south,east,north in degrees (e.g. bbox=-64,44,-62.5,45)")
        }
    }

    /// 300 photos of one region spread over a 2 by 1.5 degree box, uploaded over 30 hours.
    static func regionStore(_ directory: TemporaryDirectory) throws -> (Store, [PhotoRecord]) {
        let store = try Store.open(path: directory.file("store.db"))
        var generator = SeededGenerator(seed: 383)
        let records = (0..<300).map { index in
            PhotoRecord(
                id: String(5_000 + index), owner: "\(index % 40)@N01", title: "Photo \(index)",
                latitude: (Double.random(in: 44...45.5, using: &generator) * 1e5).rounded() / 1e5,
                longitude: (Double.random(in: -64 ... -62, using: &generator) * 1e5).rounded() / 1e5,
                uploaded: 1_700_000_000 + Int64(index) * 360, regionID: "R", region: "Nova Scotia, Canada")
        }
        _ = try PhotoWriter(store: store).store(records, now: 1_700_200_000)
        return (store, records)
    }

    /// The list in a box holds exactly the photos inside it (edges included), counted, paged
    /// and ordered as the whole list; with a window too, both keep to theirs.
    @Test func aZoomedListHoldsExactlyThePhotosInsideItsBox() throws {
        let directory = TemporaryDirectory()
        let (store, records) = try Self.regionStore(directory)
        let queries = Queries(store: store)
        let region = try #require(try queries.region(id: "R"))
        let box = try GeoBox(parsing: "-63.5,44.4,-62.7,45")
        let inside = records.filter { box.contains(latitude: $0.latitude!, longitude: $0.longitude!) }
            .sorted { ($0.uploaded!, $0.id) > ($1.uploaded!, $1.id) }
        #expect(inside.count > 30 && inside.count < 200)
        let list = PhotoList(.region(region), view: box)
        let summary = try ListSummary(list, queries)
        #expect(summary.total == inside.count)
        var listed: [String] = []
        for number in 1...Paging(page: 1, total: summary.total).pages {
            listed += try #require(try queries.page(number, of: list, summary: summary)).photos.map(\.record.id)
        }
        #expect(listed == inside.map(\.id))
        let spots = try queries.positions(of: list, decimals: 5)
        #expect(spots.reduce(0) { $0 + $1.photos } == inside.count)
        #expect(spots.allSatisfy { box.contains(latitude: $0.latitude, longitude: $0.longitude) })
        // A window as well: the photos inside both.
        let window = try TimeWindow("10h", end: 1_700_000_000 + 299 * 360, endsNow: false)
        let both = inside.filter { $0.uploaded! > window.start! && $0.uploaded! <= window.end }
        #expect(try queries.count(of: list.within(window)) == both.count && !both.isEmpty)
        // The same box in another order: the same photos.
        let byTitle = try queries.photos(in: list.ordered(by: .title), limit: nil)
        #expect(Set(byTitle.map(\.record.id)) == Set(inside.map(\.id)))
        // Its map shows the box (widened to 4:3) and every spot of the view.
        let map = try #require(summary.map)
        let shown = HTMLPage.shownBox(of: map)
        #expect(shown.west <= box.west && shown.east >= box.east && shown.south <= box.south && shown.north >= box.north)
    }

    /// A list of at most `ListSummary.rowidsKeptUpTo` photos keeps its row ids in order, and
    /// each of its pages read by them is the page read past the photos before it: the same
    /// photos in the same order, in every order, zoomed and windowed too; a longer list keeps
    /// none.
    @Test func aListsPagesReadByItsKeptRowIDsAreItsPagesReadInOrder() throws {
        let directory = TemporaryDirectory()
        let (store, _) = try Self.regionStore(directory)
        let queries = Queries(store: store)
        let region = try #require(try queries.region(id: "R"))
        let window = try TimeWindow("10h", end: 1_700_000_000 + 299 * 360, endsNow: false)
        let box = try GeoBox(parsing: "-63.5,44.4,-62.7,45")
        for order in PhotoOrder.allCases {
            for list in [PhotoList(.region(region), order: order), PhotoList(.all, order: order),
                         PhotoList(.region(region), order: order, window: window), PhotoList(.all, order: order, view: box)] {
                let summary = try ListSummary(list, queries)
                let kept = try #require(summary.ranked, "\(list)")
                let counted = try queries.count(of: list)
                #expect(summary.total == kept.count && summary.total == counted, "\(list)")
                for number in 1...Paging(page: 1, total: summary.total).pages {
                    let paging = Paging(page: number, total: summary.total)
                    let read = try queries.photos(in: list, limit: Paging.size, offset: paging.offset).map(\.record.id)
                    let page = try #require(try queries.page(number, of: list, summary: summary))
                    #expect(page.photos.map(\.record.id) == read, "\(list) page \(number)")
                }
            }
        }
        // Kept by list and order: a list's row ids in one order are not its pages in another.
        #expect(PhotoList(.region(region), order: .title).summaryKey != PhotoList(.region(region), order: .uploaded).summaryKey)
        #expect(PhotoList(.all, order: .title).summaryKey != PhotoList(.all, order: .uploaded).summaryKey)
        #expect(try queries.rowids(of: PhotoList(.region(region)), atMost: 300)?.count == 300)
        #expect(try queries.rowids(of: PhotoList(.region(region)), atMost: 299) == nil)
    }

    /// The links over a map lead into its quarters that hold photos, each a box whose list is
    /// what the link says; a zoomed page says how many are in view and leads out and back.
    @Test func aMapLeadsIntoItsQuartersWithPhotosAndBackOut() throws {
        let directory = TemporaryDirectory()
        let (store, records) = try Self.regionStore(directory)
        let queries = Queries(store: store)
        let region = try #require(try queries.region(id: "R"))
        let list = PhotoList(.region(region))
        let summary = try ListSummary(list, queries)
        let map = try #require(summary.map)
        let quarters = HTMLPage.zoomQuarters(of: map)
        #expect(!quarters.isEmpty && quarters.count <= 4)
        for quarter in quarters {
            let holds = records.filter { quarter.contains(latitude: $0.latitude!, longitude: $0.longitude!) }
            #expect(!holds.isEmpty)
            #expect(try queries.count(of: list.viewing(quarter)) == holds.count)
        }
        let site = Site.served(formToken: "t")
        let page = try #require(try queries.page(1, of: list, summary: summary))
        let html = String(decoding: HTMLPage.photos(page.photos, list: list, images: .init(thumbnails: nil), site: site,
                                                    paging: page.paging, map: map), as: UTF8.self)
        let links = PageText.attributes("href", in: html).filter { $0.contains("bbox=") }
        #expect(links == quarters.map { "/regions/R?bbox=" + $0.text })
        #expect(html.contains("Click a part of the map to look closer."))
        // A quarter's page: how many are in it, a way out, the whole map.
        let zoomed = list.viewing(quarters[0])
        let zoomedSummary = try ListSummary(zoomed, queries)
        let zoomedPage = try #require(try queries.page(1, of: zoomed, summary: zoomedSummary))
        let zoomedHTML = String(decoding: HTMLPage.photos(zoomedPage.photos, list: zoomed, images: .init(thumbnails: nil), site: site,
                                                          paging: zoomedPage.paging, map: zoomedSummary.map), as: UTF8.self)
        #expect(zoomedHTML.contains("\(HTMLPage.count(zoomedSummary.total, "photo")) in this part of the map"))
        #expect(zoomedHTML.contains("<a href=\"/regions/R\">The whole map</a>") && zoomedHTML.contains(">Zoom out</a>"))
        // A file of the export: its whole map leads to the quarters' files, which lead back only.
        let file = String(decoding: HTMLPage.photos(page.photos, list: list, images: .init(thumbnails: [:]), site: .exported,
                                                    paging: page.paging, map: map), as: UTF8.self)
        #expect(PageText.attributes("href", in: file).filter { $0.contains("~") } == quarters.map { "region-R~\($0.text).html" })
        let zoomedFile = String(decoding: HTMLPage.photos(zoomedPage.photos, list: zoomed, images: .init(thumbnails: [:]), site: .exported,
                                                          paging: zoomedPage.paging, map: zoomedSummary.map), as: UTF8.self)
        #expect(!zoomedFile.contains("class=\"zoom\"") && !zoomedFile.contains("Zoom out") && zoomedFile.contains("<a href=\"region-R.html\">The whole map</a>"))
        // regions-top's own pages (no export beside them) offer no zoom.
        let alone = String(decoding: HTMLPage.photos(page.photos, list: list, images: .init(thumbnails: [:]), site: .files,
                                                     paging: page.paging, map: map), as: UTF8.self)
        #expect(!alone.contains("class=\"zoom\""))
    }
}
