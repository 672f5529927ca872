import FakeFlickr
import Foundation
import Testing
import TopRegionsTestSupport

@Suite("Ground truth")
struct GroundTruthTests {
    struct TruthLine: Equatable, CustomStringConvertible {
        let rank: Int
        let regionID: String
        let name: String
        let photographers: Int
        let photos: Int

        var description: String { "\(rank) \(name) [\(regionID)] \(photographers)/\(photos)" }
    }

    static func parse(_ ndjson: String) throws -> [TruthLine] {
        try ndjson.split(separator: "\n").map { line in
            let object = try jsonObject(Data(line.utf8))
            #expect(Array(object.keys).sorted() == ["name", "photographers", "photos", "rank", "region_id"])
            return TruthLine(
                rank: try intValue(object["rank"]), regionID: object["region_id"] as! String, name: object["name"] as! String,
                photographers: try intValue(object["photographers"]), photos: try intValue(object["photos"]))
        }
    }

    /// What a correct client computes: every page of the search, each place looked up once,
    /// photos grouped by their place's region, photographers counted by NSID.
    static func recompute(_ fake: RunningFake, _ parameters: [(String, String)]) async throws -> [TruthLine] {
        let photos = try await fake.searchAllPages(parameters + [("has_geo", "1"), ("extras", toolkitExtras)]).photos
        let placeIDs = Array(Set(photos.compactMap { $0["place_id"] as? String })).sorted()
        let urls = placeIDs.map { fake.rest([("method", "flickr.places.getInfo"), ("place_id", $0)]) }
        var regionOfPlace: [String: (id: String, name: String)] = [:]
        for (placeID, body) in zip(placeIDs, try await Curl.getMany(urls).bodies) {
            let place = try jsonObject(body)["place"] as? [String: Any]
            if let region = place?["region"] as? [String: Any] {
                regionOfPlace[placeID] = (region["place_id"] as! String, region["_content"] as! String)
            }
        }
        var owners: [String: Set<String>] = [:]
        var photoCounts: [String: Int] = [:]
        var names: [String: String] = [:]
        for photo in photos {
            guard let placeID = photo["place_id"] as? String, let region = regionOfPlace[placeID] else { continue }
            owners[region.id, default: []].insert(photo["owner"] as! String)
            photoCounts[region.id, default: 0] += 1
            names[region.id] = region.name
        }
        let ordered = owners.keys.sorted { a, b in
            if owners[a]!.count != owners[b]!.count { return owners[a]!.count > owners[b]!.count }
            // Names ordered as a reader would: case, accents and width ignored (Île before Jura).
            let folding: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive, .widthInsensitive]
            let (nameA, nameB) = (Array(names[a]!.folding(options: folding, locale: nil).utf8), Array(names[b]!.folding(options: folding, locale: nil).utf8))
            if nameA != nameB { return nameA.lexicographicallyPrecedes(nameB) }
            return Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
        }
        return ordered.enumerated().map { index, region in
            TruthLine(rank: index + 1, regionID: region, name: names[region]!, photographers: owners[region]!.count, photos: photoCounts[region]!)
        }
    }

    @Test("/_fake/truth equals what a client recomputes from the fake's own search and getInfo answers")
    func matchesRecomputation() async throws {
        let world = smallWorld()
        try await RunningFake.with(world: world) { fake in
            let truth = try Self.parse(try await Curl.get(fake.control("truth")).text)
            #expect(truth.count > 10)
            #expect(truth.contains { $0.name.unicodeScalars.contains { !$0.isASCII } }, "non-ASCII region names")
            #expect(try await Self.recompute(fake, [("license", "1,2,4,7")]) == truth)

            // An explicit window and other licences, then a later clock.
            let window = [("min_upload_date", String(world.now - 5 * 3600)), ("max_upload_date", String(world.now - 3600))]
            let windowTruth = try Self.parse(
                try await Curl.get(fake.control("truth?min_upload_date=\(world.now - 5 * 3600)&max_upload_date=\(world.now - 3600)&license=0,4"))
                    .text)
            #expect(try await Self.recompute(fake, window + [("license", "0,4")]) == windowTruth)

            _ = try await Curl.post(fake.control("clock?advance=7200"))
            let later = try Self.parse(try await Curl.get(fake.control("truth")).text)
            #expect(later != truth)
            #expect(try await Self.recompute(fake, [("license", "1,2,4,7")]) == later)
            #expect(fake.server.groundTruth().map(\.jsonLine).joined(separator: "\n") + "\n" == (try await Curl.get(fake.control("truth")).text))
        }
    }

    @Test("flickr-fake --truth prints the same NDJSON as /_fake/truth for the same world flags")
    func commandLineTruth() async throws {
        let binary = try flickrFakeExecutable()
        let output = try await runProcess(binary, ["--truth", "--seed", "11", "--photos", "900", "--regions", "80", "--now", "1763000000"])
        #expect(output.exitCode == 0, "\(output.stderr)")
        var world = WorldOptions()
        world.seed = 11
        world.photos = 900
        world.regions = 80
        world.now = 1_763_000_000
        try await RunningFake.with(world: world) { fake in
            let served = try await Curl.get(fake.control("truth")).text
            #expect(output.text == served)
            #expect(try Self.parse(served).map(\.rank) == Array(1...(try Self.parse(served).count)))
        }
    }
}

/// The built `flickr-fake`: beside the test bundle, as `swift build --build-tests` leaves it.
func flickrFakeExecutable() throws -> String {
    let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var directory = testBinary.deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = directory.appendingPathComponent("flickr-fake").path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        directory = directory.deletingLastPathComponent()
    }
    throw TestFailure("flickr-fake was not found beside \(testBinary.path); build it first (swift build --build-tests)")
}
