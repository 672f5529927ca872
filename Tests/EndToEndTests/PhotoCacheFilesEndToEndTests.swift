import Foundation
import Testing
import TopRegionsTestSupport

/// photo-cache against flickr-fake: which files the cache may touch, and how long the files
/// it printed stay.
@Suite struct PhotoCacheFilesEndToEndTests {
    typealias Setup = ImagesEndToEndTests.Setup
    static let photoBytes = ImagesEndToEndTests.photoBytes
    static let entry = ImagesEndToEndTests.entry

    /// The previous version's CACHEDIR.TAG, byte for byte.
    static let previousTag = """
        Signature: 8a477f597d28d172789f06886806bc55
        # This file is a cache directory tag created by topregions (photo-cache).
        # For information about cache directory tags, see https://bford.info/cachedir/

        """

    /// A real JPEG's first and last bytes around `count` bytes of filler.
    static func jpeg(_ count: Int) -> Data {
        Data([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0x41, count: count) + [0xFF, 0xD9])
    }

    /// Every file under `directory` (hidden ones and subfolders' too) with its bytes.
    static func files(_ directory: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.subpathsOfDirectory(atPath: directory) {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: directory + "/" + name, isDirectory: &isDirectory)
            files[name] = isDirectory.boolValue ? Data("<dir>".utf8) : try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
        }
        return files
    }

    static func json(_ text: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
    }

    // MARK: Only what the cache wrote

    /// A folder of someone's photos given as the cache: nothing is removed, nothing written,
    /// nothing downloaded, and the message says why and what to do; --info shows it holds no
    /// photo of the cache's. With --claim-dir the cache keeps its photos beside them, and its
    /// evictions and prunes never touch them.
    @Test func aFolderOfOtherFilesIsNeverMadeACacheUnlessClaimed() throws {
        let setup = try Setup()
        let (a, b) = (setup.ids[0], setup.ids[1])
        let folder = setup.scratch.file("pictures")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Self.jpeg(5000).write(to: URL(fileURLWithPath: folder + "/holiday.jpg"))
        try Data("mine".utf8).write(to: URL(fileURLWithPath: folder + "/notes.txt"))
        let theirs = try Self.files(folder)

        let refusal = """
            photo-cache: will not use \(folder) as the photo cache: it holds 2 files the cache did not write (holiday.jpg, notes.txt) \
            and no CACHEDIR.TAG of topregions; give an empty or new directory, or --claim-dir to keep the cache there beside \
            them (they are never counted, evicted or pruned)

            """
        for arguments in [["--prune", "--max-bytes", "0"], [a], ["--max-bytes", "0", "--path", a, b]] {
            let run = try setup.photoCache(["--cache-dir", folder] + arguments)
            #expect(run.status == 73, "\(arguments): \(run.stderr)")
            #expect(run.stderr == refusal)
            #expect(run.stdout == "")
            #expect(try Self.files(folder) == theirs, "\(arguments)")
        }
        #expect(try setup.imageRequests().isEmpty)

        let info = try setup.photoCache(["--cache-dir", folder, "--info"])
        #expect(info.status == 0)
        #expect(try Self.json(info.stdout)["entries"] as? Int == 0)
        #expect(try Self.json(info.stdout)["bytes"] as? Int == 0)
        #expect(try Self.json(info.stdout)["ignored"] as? Int == 2)
        #expect(info.stderr == "photo-cache: \(folder) is not a photo cache: it holds 2 files the cache did not write and no CACHEDIR.TAG of topregions\n")
        #expect(try Self.files(folder) == theirs)
        // A file given for the directory: 73, as for any run that cannot make it a cache.
        let file = try setup.photoCache(["--cache-dir", folder + "/holiday.jpg", "--info"])
        #expect(file.status == 73)
        #expect(file.stderr == "photo-cache: cannot read the cache directory \(folder)/holiday.jpg: Not a directory\n")

        // Claimed: a photo, then another through a cap of one (the folder is a cache now:
        // no flag needed) evicts the first, not theirs; a prune to nothing removes the
        // second, not theirs.
        let claimed = try setup.photoCache(["--cache-dir", folder, "--claim-dir", "--max-bytes", "150K", a])
        #expect(claimed.status == 0 && claimed.stderr == "", "\(claimed.stderr)")
        let evicting = try setup.photoCache(["--cache-dir", folder, "--max-bytes", "150K", b])
        #expect(evicting.status == 0 && evicting.stderr == "", "\(evicting.stderr)")
        #expect(try Set(Self.files(folder).keys) == [".lock", "CACHEDIR.TAG", Self.entry(b), "holiday.jpg", "notes.txt"])
        let prune = try setup.photoCache(["--cache-dir", folder, "--prune", "--max-bytes", "0"])
        #expect(prune.stderr == "photo-cache: removed 1 photo (100K)\n")
        var left = try Self.files(folder)
        for own in [".lock", "CACHEDIR.TAG"] { #expect(left.removeValue(forKey: own) != nil) }
        #expect(left == theirs)
    }

    /// A cache the previous version wrote (its tag, <id>.jpg photos, a dead download, a photo
    /// larger than its cap in .oversize/) keeps working: its photos are taken over with their
    /// order of use, and served without a download under their new name; --info counts the
    /// oversize photo, and the next run removes it.
    @Test func aCacheOfThePreviousVersionIsTakenOver() throws {
        let setup = try Setup()
        let (a, b, c) = (setup.ids[0], setup.ids[1], setup.ids[2])
        _ = try setup.photoCache([a, b])
        let photo = try Data(contentsOf: URL(fileURLWithPath: setup.cache + "/" + Self.entry(a)))
        let requests = try setup.imageRequests().count

        let old = setup.scratch.file("old cache")
        try FileManager.default.createDirectory(atPath: old + "/.oversize", withIntermediateDirectories: true)
        try Data(Self.previousTag.utf8).write(to: URL(fileURLWithPath: old + "/CACHEDIR.TAG"))
        try Data().write(to: URL(fileURLWithPath: old + "/.lock"))
        for (id, used) in [(a, 1_700_000_000), (b, 1_700_000_100)] {
            try photo.write(to: URL(fileURLWithPath: "\(old)/\(id).jpg"))
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: TimeInterval(used))], ofItemAtPath: "\(old)/\(id).jpg")
        }
        try Data(photo.prefix(500)).write(to: URL(fileURLWithPath: "\(old)/.tmp-\(c).jpg-999999-1"))
        try Self.jpeg(3000).write(to: URL(fileURLWithPath: "\(old)/.oversize/\(c).jpg"))

        let info = try setup.photoCache(["--cache-dir", old, "--info"])
        #expect(info.status == 0 && info.stderr == "", "\(info.stderr)")
        let object = try Self.json(info.stdout)
        #expect(object["entries"] as? Int == 2)
        #expect(object["bytes"] as? Int == 2 * Self.photoBytes + 3006)
        #expect((object["oldest"] as? [String: Any])?["id"] as? String == a)
        #expect((object["newest"] as? [String: Any])?["id"] as? String == b)
        #expect(try Set(Self.files(old).keys) == [".lock", ".oversize", ".oversize/\(c).jpg", "CACHEDIR.TAG", Self.entry(a), Self.entry(b)])
        #expect(try String(contentsOfFile: old + "/CACHEDIR.TAG", encoding: .utf8).contains("\n# Layout 2: "))

        let hit = try setup.photoCache(["--cache-dir", old, "--path", a])
        #expect(hit.status == 0 && hit.stderr == "")
        #expect(hit.stdout == "\(old)/\(Self.entry(a))\n")
        #expect(try setup.imageRequests().count == requests)
        #expect(try Set(Self.files(old).keys) == [".lock", "CACHEDIR.TAG", Self.entry(a), Self.entry(b)])
    }

    /// `.oversize/` is walked by the same rule as the cache directory: only the names earlier
    /// versions put there, never through a link, never outside the cache. A file of someone
    /// else's in it survives a run and a prune, and is counted as a file the cache ignores; an
    /// untagged folder holding one is not taken as a cache. Regression: it was deleted.
    @Test func nothingInOversizeIsRemovedButTheCachesOwnPhotos() throws {
        let setup = try Setup()
        let (a, b) = (setup.ids[0], setup.ids[1])
        _ = try setup.photoCache([a])
        let oversize = setup.cache + "/.oversize"
        try FileManager.default.createDirectory(atPath: oversize, withIntermediateDirectories: true)
        try Data("report".utf8).write(to: URL(fileURLWithPath: oversize + "/report.odt"))
        try Self.jpeg(3000).write(to: URL(fileURLWithPath: "\(oversize)/\(b).jpg"))
        // Named as photos, but no earlier version named one so (ids are digits): someone's.
        let theirs = ["pic.jpg", "IMG_1234.jpg", "holiday-2024.jpg", "vacation.topregions.jpg", "\(b)x.jpg"]
        for name in theirs { try Data(name.utf8).write(to: URL(fileURLWithPath: oversize + "/" + name)) }

        let run = try setup.photoCache([b])
        #expect(run.status == 0 && run.stderr == "", "\(run.stderr)")
        #expect(try Self.files(setup.cache)[".oversize/report.odt"] == Data("report".utf8))
        #expect(try Self.files(setup.cache)[".oversize/\(b).jpg"] == nil, "an earlier version's oversize photo is removed")
        let info = try setup.photoCache(["--info"])
        #expect(try Self.json(info.stdout)["ignored"] as? Int == 1 + theirs.count)
        let prune = try setup.photoCache(["--prune", "--max-bytes", "0"])
        #expect(prune.status == 0)
        #expect(prune.stderr == "photo-cache: removed 2 photos (200K)\n")
        #expect(try Set(Self.files(setup.cache).keys) == Set([".lock", ".oversize", ".oversize/report.odt", "CACHEDIR.TAG"] + theirs.map { ".oversize/" + $0 }))
        for name in theirs { #expect(try Self.files(setup.cache)[".oversize/" + name] == Data(name.utf8), "\(name)") }

        // An untagged folder whose .oversize holds someone's file is not the cache's to take.
        let untagged = setup.scratch.file("untagged")
        try FileManager.default.createDirectory(atPath: untagged + "/.oversize", withIntermediateDirectories: true)
        try Data("report".utf8).write(to: URL(fileURLWithPath: untagged + "/.oversize/report.odt"))
        let refused = try setup.photoCache(["--cache-dir", untagged, "--prune", "--max-bytes", "0"])
        #expect(refused.status == 73)
        #expect(refused.stderr.contains("it holds 1 file the cache did not write (.oversize)"), "\(refused.stderr)")
        #expect(try Self.files(untagged)[".oversize/report.odt"] == Data("report".utf8))
        // Nor one whose .oversize holds what looks like an earlier version's photo: without
        // the tag, the folder is someone's (a plain photo-cache ID took the folder and
        // removed its .oversize/vacation.jpg).
        let lookalike = setup.scratch.file("lookalike")
        try FileManager.default.createDirectory(atPath: lookalike + "/.oversize", withIntermediateDirectories: true)
        try Self.jpeg(3000).write(to: URL(fileURLWithPath: "\(lookalike)/.oversize/\(b).jpg"))
        let taken = try setup.photoCache(["--cache-dir", lookalike, a])
        #expect(taken.status == 73, "\(taken.stderr)")
        #expect(try Self.files(lookalike).keys.sorted() == [".oversize", ".oversize/\(b).jpg"])
    }

    /// --prune --dry-run lists what --prune would remove, one NDJSON line a photo, and removes
    /// nothing (a leftover download included); --prune then removes exactly those. Before,
    /// --prune was the one destructive command without a --dry-run.
    @Test func aDryRunPruneListsWhatThePruneRemovesAndRemovesNothing() throws {
        let setup = try Setup()
        let ids = Array(setup.ids.prefix(3))
        _ = try setup.photoCache(ids)
        try Self.jpeg(10).write(to: URL(fileURLWithPath: "\(setup.cache)/.tmp-\(Self.entry(ids[0]))-99999-1"))
        let before = try Self.files(setup.cache)
        let preview = try setup.photoCache(["--prune", "--dry-run", "--max-bytes", "0"])
        #expect(preview.status == 0)
        #expect(Set(preview.stdout.split(separator: "\n").map(String.init))
            == Set(ids.map { #"{"action":"remove","id":"\#($0)","bytes":\#(Self.photoBytes)}"# }), "\(preview.stdout)")
        #expect(preview.stderr == "photo-cache: dry run: would remove 3 photos (300K) and 1 leftover file of interrupted downloads; nothing changed\n")
        #expect(try Self.files(setup.cache) == before)
        let prune = try setup.photoCache(["--prune", "--max-bytes", "0"])
        #expect(prune.stderr == "photo-cache: removed 3 photos (300K)\n")
        #expect(try Set(Self.files(setup.cache).keys) == [".lock", "CACHEDIR.TAG"])
        let refused = try setup.photoCache(["--dry-run"])
        #expect(refused.status == 64 && refused.stderr.hasPrefix("photo-cache: --dry-run previews --prune; give it with --prune\n"), "\(refused.stderr)")
    }

    /// A lock file that is a symbolic link is refused (73), never followed, the cache's as
    /// the database's: a link to nothing made photo-cache, regions-load and regions-serve
    /// spin at full CPU for good (the open said ENOENT, the create EEXIST, and again).
    @Test func aLockFileThatIsALinkIsRefusedNotFollowed() throws {
        let setup = try Setup()
        let cache = setup.scratch.file("linked-cache")
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: cache + "/.lock", withDestinationPath: "/nonexistent/lock")
        let db = setup.scratch.file("linked.db")
        try FileManager.default.copyItem(atPath: setup.db, toPath: db)
        let target = setup.scratch.file("someones-file")
        try Data("theirs".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: db + ".lock", withDestinationPath: target)
        let bounded = { (tool: String, arguments: [String]) in
            try Tools.run("/usr/bin/timeout", ["30", Tools.binDirectory.path + "/" + tool] + arguments, environment: setup.environment)
        }
        for (tool, arguments, lock) in [("photo-cache", ["--cache-dir", cache, "--info"], cache + "/.lock"),
                                        ("photo-cache", ["--cache-dir", cache, "--prune"], cache + "/.lock"),
                                        ("regions-load", ["--db", db, "--delete", setup.ids[0]], db + ".lock")] {
            let run = try bounded(tool, arguments)
            #expect(run.status == 73, "\(tool) \(arguments): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains("\(lock): it is a symbolic link, and a lock file is never used through one (remove the link)"), "\(run.stderr)")
        }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "theirs")
    }

    /// A photo the cache cannot keep (a directory in the way of its file) fails the run
    /// with 73, as its exit statuses say, where it ended 0 with nothing printed: `xdg-open
    /// "$(photo-cache --path ID)"` was given an empty path and a success.
    @Test func aPhotoThatCannotBeWrittenFailsTheRun() throws {
        let setup = try Setup()
        let (a, b) = (setup.ids[0], setup.ids[1])
        try FileManager.default.createDirectory(atPath: setup.cache + "/" + Self.entry(a), withIntermediateDirectories: true)
        let run = try setup.photoCache(["--path", a, b])
        #expect(run.status == 73, "\(run.status) \(run.stderr)")
        #expect(run.stdout == "\(setup.cache)/\(Self.entry(b))\n", "the other photo is still kept and printed")
        #expect(run.stderr.contains("photo \(a): "), "\(run.stderr)")
    }

    /// A `.oversize` that is a link to someone's folder: nothing there is looked at or removed.
    @Test func nothingIsRemovedThroughAnOversizeLink() throws {
        let setup = try Setup()
        let a = setup.ids[0]
        _ = try setup.photoCache([a])
        let oversize = setup.cache + "/.oversize"
        let elsewhere = setup.scratch.file("thesis")
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try Data("chapter one".utf8).write(to: URL(fileURLWithPath: elsewhere + "/thesis.txt"))
        try Self.jpeg(3000).write(to: URL(fileURLWithPath: elsewhere + "/pic.jpg"))
        try Self.jpeg(3000).write(to: URL(fileURLWithPath: "\(elsewhere)/\(a).topregions.jpg"))
        let theirs = try Self.files(elsewhere)
        try FileManager.default.createSymbolicLink(atPath: oversize, withDestinationPath: elsewhere)
        for arguments in [[a], ["--prune", "--max-bytes", "0"], ["--info"]] {
            let again = try setup.photoCache(arguments)
            #expect(again.status == 0, "\(arguments): \(again.stderr)")
        }
        #expect(try Self.files(elsewhere) == theirs)
        let linked = try setup.photoCache(["--info"])
        #expect(try Self.json(linked.stdout)["ignored"] as? Int == 1)
        #expect(try Self.json(linked.stdout)["bytes"] as? Int == 0)
    }

    /// A link in a photo's place (to a JPEG anywhere) is not the photo: it is downloaded
    /// and the link replaced, the file it pointed to untouched. Before, the link was
    /// printed as the cached photo and never downloaded.
    @Test func aLinkInAPhotosPlaceIsNotThePhoto() throws {
        let setup = try Setup()
        let a = setup.ids[0]
        _ = try setup.photoCache(["--prune"])  // makes the cache, holding nothing
        let elsewhere = setup.scratch.file("elsewhere.jpg")
        try Self.jpeg(3000).write(to: URL(fileURLWithPath: elsewhere))
        let theirs = try Data(contentsOf: URL(fileURLWithPath: elsewhere))
        try FileManager.default.createSymbolicLink(atPath: setup.cache + "/" + Self.entry(a), withDestinationPath: elsewhere)
        let run = try setup.photoCache(["--path", a])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "\(setup.cache)/\(Self.entry(a))\n")
        #expect(try setup.imageRequests().count == 1, "the photo was downloaded")
        #expect(try FileManager.default.attributesOfItem(atPath: setup.cache + "/" + Self.entry(a))[.type] as? FileAttributeType == .typeRegular)
        #expect(try Data(contentsOf: URL(fileURLWithPath: elsewhere)) == theirs)
    }

    /// The previous version's tag on a directory that also holds files of others: its
    /// <id>.jpg files may be someone's, so they are left alone (said once) and never pruned.
    @Test func previousVersionPhotosBesideOtherFilesAreLeftAlone() throws {
        let setup = try Setup()
        let a = setup.ids[0]
        let mixed = setup.scratch.file("mixed")
        try FileManager.default.createDirectory(atPath: mixed, withIntermediateDirectories: true)
        try Data(Self.previousTag.utf8).write(to: URL(fileURLWithPath: mixed + "/CACHEDIR.TAG"))
        try Self.jpeg(3000).write(to: URL(fileURLWithPath: "\(mixed)/\(a).jpg"))
        try Data("mine".utf8).write(to: URL(fileURLWithPath: mixed + "/notes.txt"))

        let first = try setup.photoCache(["--cache-dir", mixed, a])
        #expect(first.status == 0)
        #expect(first.stderr == """
            photo-cache: left 1 file named like an earlier photo-cache's photos alone in \(mixed) (\(a).jpg): beside \
            files of others they may not be the cache's; remove them yourself if they are

            """)
        #expect(try setup.imageRequests() == ["\(a)_b"])
        let prune = try setup.photoCache(["--cache-dir", mixed, "--prune", "--max-bytes", "0"])
        #expect(prune.stderr == "photo-cache: removed 1 photo (100K)\n")
        #expect(try Self.files(mixed)["\(a).jpg"] == Self.jpeg(3000))
        #expect(try Self.files(mixed)["notes.txt"] == Data("mine".utf8))
    }
}

extension PhotoCacheFilesEndToEndTests {
    /// A cache a later version wrote (its tag names a later layout) is not this version's to
    /// change: refused, and left as it was.
    @Test func aCacheOfALaterVersionIsLeftAsItIs() throws {
        let setup = try Setup()
        let later = setup.scratch.file("later")
        try FileManager.default.createDirectory(atPath: later, withIntermediateDirectories: true)
        let tag = Self.previousTag + "# Layout 3: photos are somewhere else.\n"
        try Data(tag.utf8).write(to: URL(fileURLWithPath: later + "/CACHEDIR.TAG"))
        try Self.jpeg(100).write(to: URL(fileURLWithPath: "\(later)/\(setup.ids[0]).topregions.jpg"))
        let before = try Self.files(later)
        for arguments in [["--prune", "--max-bytes", "0"], [setup.ids[0]]] {
            let run = try setup.photoCache(["--cache-dir", later] + arguments)
            #expect(run.status == 73)
            #expect(run.stderr == "photo-cache: \(later) holds a photo cache of a later topregions (layout 3); use that version, or another --cache-dir\n")
        }
        #expect(try Self.files(later) == before)
        #expect(try setup.imageRequests().isEmpty)
    }

    // MARK: What a run printed stays till it ends

    /// Five photos through a cache of three: every path printed is there when the run ends,
    /// stderr says by how much the run went over the cap, and the next run trims the cache
    /// back under it, least recently used first.
    @Test func everyPathARunPrintsIsThereWhenItEnds() throws {
        let setup = try Setup()
        let ids = Array(setup.ids[0..<5])
        let cap = ["--max-bytes", "\(3 * Self.photoBytes + 1000)B"]
        let run = try setup.photoCache(cap + ["--path", "--parallel", "1"] + ids)
        #expect(run.status == 0)
        let paths = ids.map { "\(setup.cache)/\(Self.entry($0))" }
        #expect(run.stdout == paths.map { $0 + "\n" }.joined())
        for path in paths {
            #expect((try? Data(contentsOf: URL(fileURLWithPath: path)))?.count == Self.photoBytes, "\(path) is gone")
        }
        #expect(run.stderr == "photo-cache: this run's 5 photos (500K) are more than the cache's cap (301K): they stay, 199K over it, until photo-cache next runs\n")

        let next = try setup.photoCache(cap + [ids[4]])
        #expect(next.status == 0 && next.stderr == "")
        #expect(try setup.cacheEntries() == ids[2...].map(Self.entry).sorted())
        #expect(try setup.imageRequests().count == 5)
    }

    /// Another process's evictions and prunes pass over what a running photo-cache printed:
    /// a prune to nothing says what stays and why, and the first run's paths are all there
    /// when it ends.
    @Test func aRunningPhotoCacheKeepsWhatItPrintedFromOthers() throws {
        let setup = try Setup()
        let (a, b, c) = (setup.ids[0], setup.ids[1], setup.ids[2])
        let fifo = setup.scratch.file("ids")
        #expect(mkfifo(fifo, 0o600) == 0)
        var env = setup.environment
        env["BIN"] = Tools.binDirectory.path
        env["DB"] = setup.db
        env["FIFO"] = fifo
        let running = try Tools.start("/bin/bash", ["-c", #"exec "$BIN/photo-cache" --db "$DB" --path < "$FIFO""#], environment: env)
        let ids = try #require(FileHandle(forWritingAtPath: fifo))
        ids.write(Data("\(a)\n".utf8))
        // Until it has printed a's path.
        let printed = running.scratch.appendingPathComponent("stdout")
        let deadline = Date().addingTimeInterval(60)
        while (try? Data(contentsOf: printed))?.last != UInt8(ascii: "\n") && Date() < deadline { usleep(10_000) }
        #expect(try String(contentsOf: printed, encoding: .utf8) == "\(setup.cache)/\(Self.entry(a))\n")

        let prune = try setup.photoCache(["--prune", "--max-bytes", "0"])
        #expect(prune.status == 0)
        #expect(prune.stderr == "photo-cache: removed 0 photos (0); 1 photo (100K) printed by a photo-cache still running stays\n")
        let other = try setup.photoCache(["--max-bytes", "150K", "--parallel", "1", b, c])
        #expect(other.status == 0)
        #expect(try setup.cacheEntries() == [a, b, c].map(Self.entry).sorted())

        ids.write(Data("\(b)\n".utf8))
        try ids.close()
        let result = try running.wait()
        #expect(result.status == 0 && result.stderr == "", "\(result.stderr)")
        #expect(result.stdout == "\(setup.cache)/\(Self.entry(a))\n\(setup.cache)/\(Self.entry(b))\n")
        for id in [a, b] { #expect(FileManager.default.fileExists(atPath: "\(setup.cache)/\(Self.entry(id))")) }
        #expect(try setup.imageRequests().sorted() == [a, b, c].map { "\($0)_b" }.sorted())
    }

    // MARK: A photo larger than the cache

    /// A photo larger than the whole cap is an entry like any other while its run needs it:
    /// printed at its place, counted by --info, evicting no other photo; the next run
    /// removes it first, keeping the rest; a prune to nothing leaves no byte of a photo.
    @Test func aPhotoLargerThanTheCapIsCountedAndGoesFirstOnceItsRunEnds() throws {
        let setup = try Setup([])  // the fake's own sizes: 150 to 600 KB
        let roomy = try setup.photoCache(["--max-bytes", "100M"] + setup.ids.prefix(8))
        let sizes = try roomy.stdout.split(separator: "\n").map { line in
            let record = try Self.json(String(line))
            return (id: record["id"] as! String, bytes: record["bytes"] as! Int)
        }.sorted { $0.bytes < $1.bytes }
        let (small, large) = (sizes[0], sizes[7])
        try #require(small.bytes < large.bytes)
        _ = try setup.photoCache(["--prune", "--max-bytes", "0"])
        #expect(try setup.cacheEntries().isEmpty)
        let cap = ["--max-bytes", "\(small.bytes)B"]

        _ = try setup.photoCache(cap + [small.id])
        let big = try setup.photoCache(cap + ["--path", large.id])
        #expect(big.status == 0)
        #expect(big.stdout == "\(setup.cache)/\(Self.entry(large.id))\n")
        #expect(big.stderr == """
            photo-cache: this run's photo (\(Self.size(large.bytes))) is more than the cache's cap \
            (\(Self.size(small.bytes))): it stays, \(Self.size(large.bytes - small.bytes)) over it, until photo-cache next runs

            """)
        #expect(try setup.cacheEntries() == [small.id, large.id].map(Self.entry).sorted())
        let info = try Self.json(try setup.photoCache(cap + ["--info"]).stdout)
        #expect(info["entries"] as? Int == 2)
        #expect(info["bytes"] as? Int == small.bytes + large.bytes)

        let next = try setup.photoCache(cap + [small.id])
        #expect(next.status == 0 && next.stderr == "")
        #expect(try setup.cacheEntries() == [Self.entry(small.id)])

        _ = try setup.photoCache(cap + [large.id])
        let prune = try setup.photoCache(["--prune", "--max-bytes", "0"])
        #expect(prune.stderr == "photo-cache: removed 2 photos (\(Self.size(small.bytes + large.bytes)))\n")
        #expect(try Set(Self.files(setup.cache).keys) == [".lock", "CACHEDIR.TAG"])
        #expect(try Self.json(try setup.photoCache(["--info"]).stdout)["bytes"] as? Int == 0)
        #expect(try setup.imageRequests().count == 8 + 1 + 1 + 1)
    }

    /// A size as photo-cache writes it: 1024-based, one decimal, its unit.
    static func size(_ bytes: Int) -> String {
        var (value, unit) = (Double(bytes), 0)
        while value >= 1024 { value /= 1024; unit += 1 }
        let rounded = (value * 10).rounded() / 10
        return (rounded == rounded.rounded() ? "\(Int(rounded))" : "\(rounded)") + ["", "K", "M"][unit]
    }
}
