import Foundation
import Testing
import TopRegionsTestSupport

/// `regions-top --region` as people type names, and `--regions`, through the built binary
/// on the fixture.
@Suite struct RegionNamesEndToEndTests {
    static let fixture = Tools.fixtures.appendingPathComponent("photos.ndjson").path
    static let novaScotia = "R001.iRFHXRzZ"
    static let ileDeFrance = "R000.Dti86wxK"

    struct Loaded {
        let scratch = TemporaryDirectory()
        let db: String
        let environment: [String: String]

        init() throws {
            db = scratch.file("photos.db")
            environment = Tools.environment(home: scratch.path)
            let load = try Tools.run("regions-load", ["-q", "--db", db, RegionNamesEndToEndTests.fixture], environment: environment)
            #expect(load.status == 0, "\(load.stderr)")
        }

        func top(_ arguments: [String]) throws -> RunResult {
            try Tools.run("regions-top", ["--db", db] + arguments, environment: environment)
        }
    }

    @Test func theStartOfANameWordsOfItAndADecomposedSpellingNameTheRegion() throws {
        let loaded = try Loaded()
        let byID = try loaded.top(["--region", Self.novaScotia])
        #expect(byID.status == 0)
        #expect(byID.stdout.split(separator: "\n").count == 79)
        for name in ["Nova Scotia, Canada", "nova scotia", "NOVA", "scotia canada"] {
            let run = try loaded.top(["--region", name])
            #expect(run.status == 0 && run.stderr == "", "\(name): \(run.stderr)")
            #expect(run.stdoutBytes == byID.stdoutBytes, "\(name)")
        }
        let ile = try loaded.top(["--region", Self.ileDeFrance])
        #expect(ile.stdout.split(separator: "\n").count == 187)
        // As macOS types it: I + U+0302 COMBINING CIRCUMFLEX ACCENT.
        for name in ["I\u{0302}le-de-France, France", "Île-de-France, France", "ile de france", "ÎLE-DE-FRANCE"] {
            let run = try loaded.top(["--region", name])
            #expect(run.status == 0 && run.stdoutBytes == ile.stdoutBytes, "\(name): \(run.stderr)")
        }
    }

    @Test func severalFittingRegionsAreAUsageErrorListingThemWithTheirIds() throws {
        let loaded = try Loaded()
        let new = try loaded.top(["--region", "new"])
        #expect(new.status == 64)
        #expect(new.stdout == "")
        #expect(new.stderr == """
            regions-top: 2 regions have names starting with "new"; give more of the name, or an id:
              New South Wales, Australia  (id R031.iiyFSbX6, 32 photos)
              New York, United States     (id R015.ag3t4ftk, 42 photos)

            """)
        let sameName = try loaded.top(["--region", "alpha region, testland"])
        #expect(sameName.status == 64)
        #expect(sameName.stderr == """
            regions-top: 2 regions are named "alpha region, testland"; give one of their ids:
              Alpha Region, Testland  (id R061.TguWePmt, 1 photo)
              alpha region, Testland  (id R062.RDbrVgRI, 1 photo)

            """)
        // Spelled exactly as one of them is, it is that one.
        #expect(try loaded.top(["--region", "alpha region, Testland"]).status == 0)
    }

    @Test func anUnknownNameExits66WithTheNearestNames() throws {
        let loaded = try Loaded()
        let typo = try loaded.top(["--region", "Nova Scota"])
        #expect(typo.status == 66)
        #expect(typo.stdout == "")
        #expect(typo.stderr == """
            regions-top: no region named "Nova Scota"; did you mean:
              Nova Scotia, Canada  (id R001.iRFHXRzZ, 79 photos)

            """)
        let nothing = try loaded.top(["--region", "Atlantis"])
        #expect(nothing.status == 66)
        #expect(nothing.stderr == "regions-top: no region named \"Atlantis\" (regions-top --regions lists every region)\n")
    }

    @Test func regionsListsEveryNameInNameOrderAndRowsWithAFormat() throws {
        let loaded = try Loaded()
        let names = try loaded.top(["--regions"])
        #expect(names.status == 0 && names.stderr == "")
        let lines = names.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(lines.count == 64)
        #expect(lines.prefix(3) == ["Alpha Region, Testland", "alpha region, Testland", "Andalucía, España"])
        // Without case, accents or width, in the order of the bytes (as SQLite compares):
        // Latin with its accented letters, then Greek, ..., Hangul.
        func key(_ name: String) -> String { name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil) }
        #expect(zip(lines, lines.dropFirst()).allSatisfy { !key($1).utf8.lexicographicallyPrecedes(key($0).utf8) })
        // Regression: accented capitals sorted after Z.
        let ile = try #require(lines.firstIndex(of: "Île-de-France, France"))
        let afterI = lines.indices.filter { key(lines[$0]).first.map { ("j"..."z").contains($0) } ?? false }
        #expect(!afterI.isEmpty && afterI.allSatisfy { $0 > ile })
        #expect(lines.suffix(2) == ["北京市, 中国", "서울특별시, 대한민국"] && lines.contains("Île-de-France, France"))

        // The same regions as the ranking, with their ids and counts, in name order.
        let rows = try loaded.top(["--regions", "--format", "ndjson"]).stdout.split(separator: "\n").map {
            try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        #expect(rows.map { $0["name"] as! String } == lines)
        #expect(rows.allSatisfy { $0["rank"] == nil })
        let ranked = try loaded.top(["--limit", "1000", "--format", "ndjson"]).stdout.split(separator: "\n").map {
            try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        func summary(_ row: [String: Any]) -> String { "\(row["region_id"]!) \(row["name"]!) \(row["photographers"]!) \(row["photos"]!)" }
        #expect(rows.map(summary).sorted() == ranked.map(summary).sorted())

        let csv = try loaded.top(["--regions", "--format", "csv", "--limit", "2"])
        #expect(csv.stdout == "region_id,name,photographers,photos,latitude,longitude\r\nR061.TguWePmt,\"Alpha Region, Testland\",1,1,,\r\nR062.RDbrVgRI,\"alpha region, Testland\",1,1,,\r\n")

        let page = try loaded.top(["--regions", "--format", "html"])
        #expect(page.status == 64)
        #expect(page.stderr.contains("--regions has no page; the page of regions is regions-top --format html"))
        let both = try loaded.top(["--regions", "--region", "nova"])
        #expect(both.status == 64)
    }
}
