import Foundation
import Testing
import TopRegionsTestSupport

/// A photo's license, from Flickr to every output: flickr-recent asks for it (and, with
/// `--license cc`, for Creative Commons photos only), place-resolve and regions-load carry
/// and store it, and regions-top shows it in NDJSON, CSV, GeoJSON and its pages.
@Suite struct LicenseEndToEndTests {
    static let creativeCommons: Set<String> = ["1", "2", "3", "4", "5", "6", "9", "10"]

    static func objects(_ ndjson: String) -> [[String: Any]] {
        ndjson.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
    }

    @Test func theLicenseTravelsFromFlickrToEveryOutput() throws {
        let scratch = try TemporaryDirectory()
        let fake = try FakeFlickrProcess([], scratch: scratch)
        let db = scratch.file("photos.db")
        let environment = fake.environment(home: scratch.path, ["DB": db])

        let fetched = try Tools.shell(#""$BIN/flickr-recent" -q --db "$DB" --license cc"#, environment: environment)
        try #require(fetched.status == 0, "\(fetched.stderr)")
        let records = Self.objects(fetched.stdout)
        try #require(records.count >= 50, "\(records.count) records")
        // Asked for every Creative Commons license, and for each photo's license.
        let searches = try fake.requests(method: "flickr.photos.search")
        try #require(!searches.isEmpty)
        for search in searches {
            #expect(search.params["license"] == "1,2,3,4,5,6,9,10", "\(search.params)")
            #expect(search.params["extras"]?.split(separator: ",").contains("license") == true, "\(search.params)")
        }
        let licenseOf = Dictionary(uniqueKeysWithValues: records.map { ($0["id"] as! String, $0["license"] as? String) })
        #expect(licenseOf.values.allSatisfy { $0.map(Self.creativeCommons.contains) ?? false }, "\(licenseOf.values)")
        #expect(Set(licenseOf.values.compactMap { $0 }).count > 1, "the fake's photos have several licenses")

        let input = scratch.file("records.ndjson")
        try fetched.stdout.write(toFile: input, atomically: true, encoding: .utf8)
        let stored = try Tools.shell(#""$BIN/place-resolve" -q --db "$DB" < "$IN" | "$BIN/regions-load" -q --db "$DB""#, environment: environment.merging(["IN": input]) { $1 })
        try #require(stored.status == 0, "\(stored.stderr)")

        // NDJSON: every stored photo with the license Flickr sent.
        let listed = try Tools.run("regions-top", ["--db", db, "--photos", "--format", "ndjson"], environment: environment)
        try #require(listed.status == 0, "\(listed.stderr)")
        let photos = Self.objects(listed.stdout)
        #expect(photos.count == records.count)
        for photo in photos { #expect(photo["license"] as? String == licenseOf[photo["id"] as! String] ?? nil, "\(photo)") }

        // CSV: a license column, after photo_url.
        let csv = try Tools.run("regions-top", ["--db", db, "--photos", "--format", "csv"], environment: environment)
        let csvLines = csv.stdout.split(separator: "\r\n").map(String.init)
        #expect(csvLines.first == "id,owner,owner_name,title,description,latitude,longitude,place_id,uploaded,thumb_url,photo_url,region_id,region,license,viewed_at")
        #expect(csvLines.count == records.count + 1)

        // GeoJSON: a license property on each feature.
        let geojson = try Tools.run("regions-top", ["--db", db, "--photos", "--format", "geojson"], environment: environment)
        let collection = try JSONSerialization.jsonObject(with: Data(geojson.stdout.utf8)) as! [String: Any]
        let features = collection["features"] as! [[String: Any]]
        #expect(!features.isEmpty)
        for feature in features {
            let properties = feature["properties"] as! [String: Any]
            #expect(properties["license"] as? String == licenseOf[properties["id"] as! String] ?? nil)
        }

        // A region's page names each photo's license and links to its text.
        let top = Self.objects(try Tools.run("regions-top", ["--db", db, "--limit", "1"], environment: environment).stdout)[0]
        let regionID = top["region_id"] as! String
        let inRegion = Self.objects(try Tools.run("regions-top", ["--db", db, "--region", regionID, "--format", "ndjson"], environment: environment).stdout)
        let page = try Tools.run("regions-top", ["--db", db, "--region", regionID, "--format", "html", "--force"], environment: environment)
        try #require(page.status == 0, "\(page.stderr)")
        // Every card (each has one "on Flickr" link) shows its photo's license.
        let cards = page.stdout.components(separatedBy: ">on Flickr</a>").count - 1
        #expect(cards >= 1)
        #expect(page.stdout.components(separatedBy: "rel=\"license\"").count - 1 == cards)
        if inRegion.contains(where: { $0["license"] as? String == "4" }) {
            #expect(page.stdout.contains("<a class=\"license\" rel=\"license\" href=\"https://creativecommons.org/licenses/by/2.0/\">CC BY 2.0</a>"))
        }
    }
}
