import Foundation
import Testing
import TopRegionsTestSupport

/// thumb-get and photo-cache against flickr-fake: what is downloaded, how often, and what
/// stays where.
@Suite struct ImagesEndToEndTests {
    static let photoBytes = 102_400

    /// The name of photo `id`'s file in the cache.
    static func entry(_ id: String) -> String { "\(id).topregions.jpg" }

    struct Setup {
        let scratch = TemporaryDirectory()
        let fake: FakeFlickrProcess
        let db: String
        let cache: String
        let environment: [String: String]
        /// Photos of the top region, newest first.
        let ids: [String]
        let region: String

        init(_ fakeArguments: [String] = ["--large-bytes", "\(ImagesEndToEndTests.photoBytes)"]) throws {
            fake = try FakeFlickrProcess(NetworkEndToEndTests.world + fakeArguments, scratch: scratch)
            db = scratch.file("photos.db")
            cache = scratch.file("cache")
            environment = fake.environment(home: scratch.path, ["TOPREGIONS_CACHE": scratch.file("cache")])
            var env = environment
            env["DB"] = db
            let refresh = try Tools.shell(#""$BIN/flickr-recent" -q --db "$DB" | "$BIN/place-resolve" -q --db "$DB" | "$BIN/regions-load" -q --db "$DB""#, environment: env)
            precondition(refresh.status == 0, refresh.stderr)
            let top = try Tools.run("regions-top", ["--db", db, "--limit", "1", "--format", "ndjson"], environment: environment)
            let row = try JSONSerialization.jsonObject(with: Data(top.stdout.utf8)) as! [String: Any]
            region = row["region_id"] as! String
            let photos = try Tools.run("regions-top", ["--db", db, "--region", region, "--format", "ndjson"], environment: environment)
            ids = photos.stdout.split(separator: "\n").map { line in
                (try! JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any])["id"] as! String
            }
            precondition(ids.count >= 12)
        }

        func photoCache(_ arguments: [String], input: [UInt8]? = nil) throws -> RunResult {
            try Tools.run("photo-cache", ["--db", db] + arguments, input: input, environment: environment)
        }

        /// Image requests so far, as "<id>_<suffix>" (the file name without secret).
        func imageRequests() throws -> [String] {
            try fake.imageRequests().map { request in
                let file = request.path.split(separator: "/").last!
                let parts = file.split(separator: "_")
                return "\(parts[0])_\(parts.last!.prefix { $0 != "." })"
            }
        }

        /// The cache's photos, by file name.
        func cacheEntries() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: cache).filter { $0.hasSuffix(".topregions.jpg") }.sorted()
        }

        func cacheBytes() throws -> Int {
            try cacheEntries().reduce(0) { total, name in
                total + ((try FileManager.default.attributesOfItem(atPath: cache + "/" + name)[.size] as? Int) ?? 0)
            }
        }
    }

    // MARK: thumb-get

    @Test func thumbnailsAreDownloadedOnceOnlyForThePhotosAskedAndKept() throws {
        let setup = try Setup()
        let out = setup.scratch.file("thumbs")
        var env = setup.environment
        env["DB"] = setup.db
        env["REGION"] = setup.region
        env["OUT"] = out
        let first = try Tools.shell(#""$BIN/regions-top" --db "$DB" --region "$REGION" | "$BIN/thumb-get" --db "$DB" --out "$OUT""#, environment: env)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr == "")
        let lines = first.stdout.split(separator: "\n")
        #expect(lines.count == setup.ids.count)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == setup.ids.map { "\($0).jpg" }.sorted())
        #expect(try setup.imageRequests().sorted() == setup.ids.map { "\($0)_q" }.sorted())
        let bytes = try setup.ids.map { try Data(contentsOf: URL(fileURLWithPath: "\(out)/\($0).jpg")) }
        #expect(bytes.allSatisfy { $0.starts(with: [0xFF, 0xD8]) && $0.suffix(2) == Data([0xFF, 0xD9]) })

        let second = try Tools.shell(#""$BIN/regions-top" --db "$DB" --region "$REGION" | "$BIN/thumb-get" --db "$DB" --out "$OUT""#, environment: env)
        #expect(second.stdout == first.stdout)
        #expect(try setup.imageRequests().count == setup.ids.count, "a rerun downloaded again")
        #expect(try setup.ids.map { try Data(contentsOf: URL(fileURLWithPath: "\(out)/\($0).jpg")) } == bytes)

        // Ids on stdin, as '-' asks.
        let dash = try Tools.run("thumb-get", ["--db", setup.db, "-"], input: Array("\(setup.ids[0])\n\(setup.ids[1])\n".utf8), environment: setup.environment)
        #expect(dash.status == 0 && dash.stdout.split(separator: "\n").count == 2)

        // By id, without --out: from the database, with its size.
        let one = try Tools.run("thumb-get", ["--db", setup.db, setup.ids[0]], environment: setup.environment)
        let record = try JSONSerialization.jsonObject(with: Data(one.stdout.utf8)) as! [String: Any]
        #expect(record["thumb_bytes"] as? Int == bytes[0].count)
        #expect(record["thumb_path"] == nil)
        #expect(try setup.imageRequests().count == setup.ids.count)
    }

    /// Thumbnails are stored in batches, each photo's lock held until its batch commits:
    /// four processes asking for overlapping photos at once still download each once, and
    /// each process prints every photo it asked for with its thumbnail's bytes.
    @Test func fourThumbGetsAtOnceDownloadEachThumbnailOnce() throws {
        let setup = try Setup()
        let sets = [Array(setup.ids[0..<6]), Array(setup.ids[3..<9]), Array(setup.ids[6..<12]),
                    stride(from: 0, to: 12, by: 2).map { setup.ids[$0] }]
        let runs = try sets.map { try Tools.start("thumb-get", ["--db", setup.db, "--parallel", "2"] + $0, environment: setup.environment) }
        for (asked, result) in zip(sets, try runs.map { try $0.wait() }) {
            #expect(result.status == 0, "\(result.stderr)")
            let printed = result.stdout.split(separator: "\n").map { line in
                (try! JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any])
            }
            #expect(printed.map { $0["id"] as? String } == asked.map { Optional($0) })
            #expect(printed.allSatisfy { ($0["thumb_bytes"] as? Int ?? 0) > 0 })
        }
        #expect(try setup.imageRequests().sorted() == setup.ids[0..<12].map { "\($0)_q" }.sorted())
        let stored = try Tools.run("thumb-get", ["--db", setup.db] + Array(setup.ids[0..<12]), environment: setup.environment)
        #expect(stored.status == 0 && stored.stdout.split(separator: "\n").count == 12)
        #expect(try setup.imageRequests().count == 12, "a stored thumbnail was downloaded again")
    }

    /// thumb-get loads libcurl for downloads only: with a libcurl that cannot be loaded (a
    /// file that is no library first on LD_LIBRARY_PATH), stored thumbnails are still
    /// printed, and a thumbnail that must be downloaded stops the run with one line naming
    /// libcurl (69, unavailable) once its batch's stored thumbnails are printed, asking
    /// Flickr for nothing.
    @Test func storedThumbnailsNeedNoLibcurlAndADownloadSaysWhyItCannot() throws {
        let setup = try Setup()
        let stored = try Tools.run("thumb-get", ["--db", setup.db, setup.ids[0]], environment: setup.environment)
        #expect(stored.status == 0, "\(stored.stderr)")
        let broken = setup.scratch.file("broken")
        try FileManager.default.createDirectory(atPath: broken, withIntermediateDirectories: true)
        try Data("not a library".utf8).write(to: URL(fileURLWithPath: broken + "/libcurl.so.4"))
        var withoutCurl = setup.environment
        withoutCurl["LD_LIBRARY_PATH"] = broken

        let again = try Tools.run("thumb-get", ["--db", setup.db, setup.ids[0]], environment: withoutCurl)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout == stored.stdout)
        #expect(again.stderr == "")

        let download = try Tools.run("thumb-get", ["--db", setup.db, setup.ids[1]], environment: withoutCurl)
        #expect(download.status == 69)
        #expect(download.stdout == "")
        #expect(download.stderr.hasPrefix("thumb-get: cannot load libcurl (libcurl4): \(broken)/libcurl.so.4: "), "\(download.stderr)")
        #expect(download.stderr.split(separator: "\n").count == 1, "\(download.stderr)")

        // One batch (one read) with a stored and a missing thumbnail, in either order: the
        // stored one is printed, then the run stops the same way.
        for order in [[setup.ids[0], setup.ids[1]], [setup.ids[1], setup.ids[0]]] {
            let mixed = try Tools.run("thumb-get", ["--db", setup.db], input: Array(order.map { $0 + "\n" }.joined().utf8), environment: withoutCurl)
            #expect(mixed.status == 69)
            #expect(mixed.stdout == stored.stdout, "\(order)")
            #expect(mixed.stderr == download.stderr)
        }
        #expect(try setup.imageRequests() == ["\(setup.ids[0])_q"])
    }

    @Test func unknownPhotosAndFailedDownloadsAreReportedAndTheRestCarryOn() throws {
        let setup = try Setup()
        let run = try Tools.run("thumb-get", ["--db", setup.db, setup.ids[0], "999", setup.ids[1]], environment: setup.environment)
        #expect(run.status == 66)
        #expect(run.stderr == "thumb-get: photo 999 is not in the database\n")
        #expect(run.stdout.split(separator: "\n").count == 2)

        try setup.fake.control("/_fake/faults?fail_500=1&fault_repeat=0&faults_on=images")
        let failing = try Tools.run("thumb-get", ["--db", setup.db, setup.ids[2]], environment: setup.environment)
        #expect(failing.status == 75)
        #expect(failing.stderr == "thumb-get: photo \(setup.ids[2]): thumbnail download failed: HTTP 500\n")
        #expect(failing.stdout == "")
    }

    // MARK: photo-cache

    @Test func theCacheEvictsInExactLeastRecentlyUsedOrder() throws {
        let setup = try Setup()
        let cap = ["--max-bytes", "\(3 * Self.photoBytes + 1000)B", "--parallel", "1"]
        let (a, b, c, d) = (setup.ids[0], setup.ids[1], setup.ids[2], setup.ids[3])
        let first = try setup.photoCache(cap + [a, b, c])
        #expect(first.status == 0)
        #expect(try setup.cacheEntries() == [a, b, c].map(ImagesEndToEndTests.entry).sorted())
        _ = try setup.photoCache(cap + [a])  // a hit: a is now the most recent
        _ = try setup.photoCache(cap + [d])  // b is the least recently used
        #expect(try setup.cacheEntries() == [a, c, d].map(ImagesEndToEndTests.entry).sorted())
        _ = try setup.photoCache(cap + [b])  // now c goes
        #expect(try setup.cacheEntries() == [a, b, d].map(ImagesEndToEndTests.entry).sorted())
        #expect(try setup.imageRequests() == [a, b, c, d, b].map { "\($0)_b" })

        let output = try setup.photoCache(cap + [d])
        let record = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as! [String: Any]
        #expect(record["path"] as? String == "\(setup.cache)/\(Self.entry(d))")
        #expect(record["bytes"] as? Int == Self.photoBytes)
        #expect(try setup.imageRequests().count == 5)
    }

    @Test func fourProcessesSharingACacheDownloadEachPhotoOnceAndKeepTheCap() throws {
        let setup = try Setup()
        let sets = [Array(setup.ids[0..<6]), Array(setup.ids[3..<9]), Array(setup.ids[6..<12]),
                    stride(from: 0, to: 12, by: 2).map { setup.ids[$0] }]
        // Everything fits: no photo may be downloaded twice.
        let roomy = try sets.map { try Tools.start("photo-cache", ["--db", setup.db, "--max-bytes", "2M"] + $0, environment: setup.environment) }
        for result in try roomy.map({ try $0.wait() }) {
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.split(separator: "\n").count == 6)
        }
        #expect(try setup.imageRequests().sorted() == setup.ids[0..<12].map { "\($0)_b" }.sorted())

        // A cap of three photos under the same contention: served files are whole, each run
        // keeps its six photos till it ends and says so, and the next run brings the cache
        // under its cap.
        let tight = try sets.map { try Tools.start("photo-cache", ["--db", setup.db, "--max-bytes", "\(3 * Self.photoBytes)B"] + $0.reversed(), environment: setup.environment) }
        for result in try tight.map({ try $0.wait() }) {
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr == "photo-cache: this run's 6 photos (600K) are more than the cache's cap (300K): they stay, 300K over it, until photo-cache next runs\n")
            for line in result.stdout.split(separator: "\n") {
                let record = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
                #expect(record["bytes"] as? Int == Self.photoBytes)
            }
        }
        #expect(try setup.cacheBytes() <= 12 * Self.photoBytes)
        _ = try setup.photoCache(["--prune", "--max-bytes", "\(3 * Self.photoBytes)B"])
        #expect(try setup.cacheBytes() <= 3 * Self.photoBytes)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: setup.cache).filter { $0.hasPrefix(".tmp-") }
        #expect(leftovers.isEmpty)
    }

    @Test func aDownloadKilledMidwayIsNeverServed() throws {
        let setup = try Setup(["--large-bytes", "2000000"])
        try setup.fake.control("/_fake/faults?drip_ms=20")
        let id = setup.ids[0]
        let running = try Tools.start("photo-cache", ["--db", setup.db, id], environment: setup.environment)
        // Wait until bytes have reached the temporary file, then kill -9.
        let deadline = Date().addingTimeInterval(20)
        var partial: String?
        while partial == nil && Date() < deadline {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: setup.cache)) ?? []
            partial = names.first { name in
                name.hasPrefix(".tmp-") && ((try? FileManager.default.attributesOfItem(atPath: setup.cache + "/" + name)[.size] as? Int) ?? 0) > 0
            }
            if partial == nil { usleep(20_000) }
        }
        #expect(partial != nil, "the download never started")
        kill(running.pid, SIGKILL)
        _ = try running.wait()
        #expect(try setup.cacheEntries().isEmpty)

        try setup.fake.control("/_fake/faults")
        let again = try setup.photoCache([id])
        #expect(again.status == 0)
        let record = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as! [String: Any]
        #expect(record["bytes"] as? Int == 2_000_000)
        let file = try Data(contentsOf: URL(fileURLWithPath: record["path"] as! String))
        #expect(file.count == 2_000_000 && file.suffix(2) == Data([0xFF, 0xD9]))
        #expect(try setup.imageRequests() == ["\(id)_b", "\(id)_b"])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: setup.cache).filter { $0.hasPrefix(".tmp-") }
        #expect(leftovers.isEmpty, "the dead download's temporary file was not cleaned")
    }

    @Test func aTruncatedBodyIsRetriedOrReportedButNeverCached() throws {
        let setup = try Setup()
        try setup.fake.control("/_fake/faults?truncate=1&fault_repeat=1&faults_on=images")
        let retried = try setup.photoCache([setup.ids[0]])
        #expect(retried.status == 0)
        #expect(try setup.fake.imageRequests().map(\.fault) == ["truncated", "none"])
        #expect(try setup.cacheBytes() == Self.photoBytes)

        try setup.fake.control("/_fake/faults?truncate=1&fault_repeat=0&faults_on=images")
        let failed = try setup.photoCache([setup.ids[1]])
        #expect(failed.status == 75)
        #expect(failed.stderr.contains("photo-cache: photo \(setup.ids[1]): download failed: connection closed after"))
        #expect(try setup.cacheEntries() == [Self.entry(setup.ids[0])])
    }

    @Test func memoryStaysFlatWhateverThePhotoSize() throws {
        let setup = try Setup(["--large-bytes", "41943040"])
        func peakKilobytes(_ arguments: [String]) throws -> Int {
            let run = try Tools.run("/usr/bin/time", ["-f", "%M", Tools.path("photo-cache"), "--db", setup.db] + arguments, environment: setup.environment)
            return Int(run.stderr.split(separator: "\n").last!)!
        }
        // 40 MB is over the default limit of one photo (32M): raised for this one.
        let download = try peakKilobytes(["--max-bytes", "100M", "--max-photo-bytes", "64M", setup.ids[0]])
        #expect(try setup.cacheBytes() == 41_943_040)
        // The same work without the 40 MB transfer: a cache hit.
        let hit = try peakKilobytes(["--max-bytes", "100M", "--max-photo-bytes", "64M", setup.ids[0]])
        #expect(try setup.imageRequests().count == 1)
        #expect(download - hit < 10 * 1024, "peak \(download) KB downloading 40 MB against \(hit) KB for a hit")
    }

    @Test func viewsAreRecordedForRecents() throws {
        let setup = try Setup()
        let (a, b, c) = (setup.ids[0], setup.ids[1], setup.ids[2])
        _ = try setup.photoCache([a])
        _ = try setup.photoCache([b, c])
        _ = try setup.photoCache([a])
        let recents = try Tools.run("regions-top", ["--db", setup.db, "--recents", "--format", "ndjson"], environment: setup.environment)
        let ids = recents.stdout.split(separator: "\n").map { line in
            (try! JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any])["id"] as! String
        }
        #expect(ids == [a, c, b])
        #expect(recents.stdout.contains("\"viewed_at\":"))
    }

    @Test func infoPruneAndStrangeFiles() throws {
        let setup = try Setup()
        let (a, b) = (setup.ids[0], setup.ids[1])
        _ = try setup.photoCache([a, b])
        // Someone damages an entry and leaves files of their own, photos among them (one
        // named like a photo id).
        try Data("not a photo".utf8).write(to: URL(fileURLWithPath: "\(setup.cache)/\(Self.entry(a))"))
        let theirs = ["notes.txt": Data("mine".utf8), "holiday.jpg": PhotoCacheFilesEndToEndTests.jpeg(4000),
                      "\(setup.ids[2]).jpg": PhotoCacheFilesEndToEndTests.jpeg(2000)]
        for (name, bytes) in theirs { try bytes.write(to: URL(fileURLWithPath: "\(setup.cache)/\(name)")) }
        let again = try setup.photoCache([a])
        #expect(again.status == 0)
        #expect(try setup.imageRequests().filter { $0 == "\(a)_b" }.count == 2)
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(setup.cache)/\(Self.entry(a))")).count == Self.photoBytes)

        let info = try setup.photoCache(["--info"])
        let object = try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as! [String: Any]
        #expect(object["entries"] as? Int == 2)
        #expect(object["bytes"] as? Int == 2 * Self.photoBytes)
        #expect(object["cap"] as? Int == 10_485_760)
        #expect(object["ignored"] as? Int == 3)
        #expect((object["oldest"] as? [String: Any])?["id"] as? String == b)
        #expect((object["newest"] as? [String: Any])?["id"] as? String == a)

        let prune = try setup.photoCache(["--prune", "--max-bytes", "0"])
        #expect(prune.stderr == "photo-cache: removed 2 photos (200K)\n")
        #expect(try setup.cacheEntries().isEmpty)
        for (name, bytes) in theirs { #expect(try Data(contentsOf: URL(fileURLWithPath: "\(setup.cache)/\(name)")) == bytes) }
        #expect(FileManager.default.fileExists(atPath: "\(setup.cache)/CACHEDIR.TAG"))
    }
}
