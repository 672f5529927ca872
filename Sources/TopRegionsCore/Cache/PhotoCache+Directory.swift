import Foundation
import TopRegionsSupport

/// Whose a directory is, and the names the cache gives what it writes. The cache counts,
/// evicts and prunes only files it wrote, known by names nothing else gives a file
/// (`<id>.topregions.jpg`), and writes only in a directory of its own: one with its
/// CACHEDIR.TAG, or one it creates or finds empty. A directory holding anything else is
/// taken only when the user says so (`claim`).
extension PhotoCache {
    /// What a directory given for the cache is.
    public enum Ownership: Sendable, Equatable {
        /// It does not exist yet.
        case missing
        /// It holds nothing but names the cache gives, and no tag: empty, or a cache
        /// whose tag was removed.
        case unclaimed
        /// The cache's: its CACHEDIR.TAG is there. Layout 1 is the previous version's
        /// (entries named `<id>.jpg`), taken over when the cache is opened; a layout past
        /// `PhotoCache.layout` is a later version's, and refused.
        case owned(layout: Int)
        /// It holds files of others (`others`, by name, sorted) and no tag of the cache.
        case foreign(others: [String])
    }

    /// The layout this version writes: entries `<id>.topregions.jpg`.
    static let layout = 2
    static let entrySuffix = ".topregions.jpg"
    static let tagName = "CACHEDIR.TAG"
    /// Where earlier versions served photos larger than the cap from; only emptied now.
    static let oversizeFolder = ".oversize"
    private static let tagSignature = "Signature: 8a477f597d28d172789f06886806bc55"
    private static let tagOwner = "# This file is a cache directory tag created by topregions (photo-cache)."
    private static let tagLayoutPrefix = "# Layout "
    private static let tagLayout = tagLayoutPrefix + "\(layout): photos are <id>.topregions.jpg; any other file is not the cache's."

    /// The tag: tells backup tools to skip the directory (https://bford.info/cachedir/), and
    /// the cache that the directory is its own, in which layout.
    static let tagText = [
        tagSignature, tagOwner, "# For information about cache directory tags, see https://bford.info/cachedir/", tagLayout, "",
    ].joined(separator: "\n")

    /// The file the cache keeps photo `photoID` in, in any directory (regions-top links to
    /// it when it is there).
    public static func entryName(for photoID: String) -> String {
        SafeName.fileName(for: photoID, extension: String(entrySuffix.dropFirst()))
    }

    static func isEntryName(_ name: String) -> Bool {
        isSafeStem(name, before: entrySuffix)
    }

    /// The previous layout's entry name: a photo id (1 to 32 decimal digits, as every id
    /// the toolkit takes is), then `.jpg`. Any letters-and-digits stem counted before:
    /// someone's `pic.jpg` or `IMG_1234.jpg` in `.oversize` was removed as an earlier
    /// version's photo.
    static func isPreviousEntryName(_ name: String) -> Bool {
        guard name.hasSuffix(".jpg") else { return false }
        let stem = name.utf8.dropLast(".jpg".utf8.count)
        return (1...32).contains(stem.count) && stem.allSatisfy { (0x30...0x39).contains($0) }
    }

    private static func isSafeStem(_ name: String, before suffix: String) -> Bool {
        guard name.hasSuffix(suffix), name.utf8.count > suffix.utf8.count else { return false }
        return name.dropLast(suffix.count).unicodeScalars.allSatisfy(SafeName.isSafe)
    }

    /// Where a download of `entry` streams before it is complete.
    static func temporaryName(for entry: String, sequence: Int) -> String {
        ".tmp-\(entry)-\(getpid())-\(sequence)"
    }

    /// The entry a temporary file `.tmp-<entry>-<pid>-<n>` is for; nil when `name` is not
    /// one the cache gives (of the previous layout, with `isEntry: isPreviousEntryName`).
    static func entry(ofTemporary name: String, isEntry: (String) -> Bool = isEntryName) -> String? {
        guard name.hasPrefix(".tmp-") else { return nil }
        // The entry name may itself contain '-'.
        let parts = name.dropFirst(".tmp-".count).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts.suffix(2).allSatisfy(isNumber) else { return nil }
        let entry = parts.dropLast(2).joined(separator: "-")
        return isEntry(entry) ? entry : nil
    }

    /// Whether `name` is one the cache gives in its directory, whatever the tag says: its
    /// entries and downloads, its lock file, an earlier version's oversize folder, its tag's
    /// temporary file.
    static func isOwnName(_ name: String) -> Bool {
        if name == ".lock" || name == oversizeFolder || isEntryName(name) || entry(ofTemporary: name) != nil { return true }
        // SafeName.writeAtomically's temporary file of the tag, seen while another process
        // writes it.
        return name.hasPrefix(tagName + ".tmp-") && isNumber(name.dropFirst(tagName.count + ".tmp-".count))
    }

    private static func isNumber(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (0x30...0x39).contains($0) }
    }

    /// What `directory` is to the cache. Only looks.
    public static func ownership(of directory: String) throws -> Ownership {
        var info = stat()
        if stat(directory, &info) != 0 && errno == ENOENT { return .missing }
        // A --cache-dir that cannot be read (a file, no permission) fails as it does when
        // the cache is opened for writing: it cannot be made a cache.
        let names = try contents(of: directory, otherwise: .cannotCreate)
        if names.contains(tagName), let layout = layoutOfTag(in: directory) { return .owned(layout: layout) }
        // Without the tag, `.oversize` is someone's: the versions that made it tagged
        // their caches, and what it holds would be removed as theirs.
        let others = names.filter { !isOwnName($0) || $0 == oversizeFolder }.sorted()
        return others.isEmpty ? .unclaimed : .foreign(others: others)
    }

    /// The names in the cache directory.
    static func contents(of directory: String, otherwise kind: Failure.Kind = .inputOutput) throws -> [String] {
        do {
            return try FileSystem.contentsOfDirectory(directory)
        } catch {
            throw SystemFailure.error(error.code, "cannot read the cache directory \(directory)", otherwise: kind)
        }
    }

    /// The layout the cache's tag in `directory` names; nil when the tag is not the cache's.
    static func layoutOfTag(in directory: String) -> Int? {
        let fd = open(directory + "/" + tagName, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        // The cache's tag is under 400 bytes: its first kilobyte says whose it is.
        var bytes = [UInt8](repeating: 0, count: 1024)
        let count = read(fd, &bytes, bytes.count)
        guard count > 0 else { return nil }
        let lines = String(decoding: bytes[..<count], as: UTF8.self).split(separator: "\n").map(String.init)
        guard lines.first == tagSignature, lines.contains(tagOwner) else { return nil }
        // "# Layout N: ..."; the previous version wrote no such line.
        for line in lines where line.hasPrefix(tagLayoutPrefix) {
            if let number = Int(line.dropFirst(tagLayoutPrefix.count).prefix { $0 != ":" }) { return number }
        }
        return 1
    }

    /// Why the cache will not write in `directory`.
    static func refusal(_ directory: String, others: [String]) -> Failure {
        let shown = others.prefix(3).joined(separator: ", ") + (others.count > 3 ? ", ..." : "")
        let files = others.count == 1 ? "1 file" : "\(others.count) files"
        return Failure(.cannotCreate, """
            will not use \(directory) as the photo cache: it holds \(files) the cache did not write (\(shown)) and no \
            CACHEDIR.TAG of topregions; give an empty or new directory, or --claim-dir to keep the cache there \
            beside them (they are never counted, evicted or pruned)
            """)
    }

    /// What taking over the previous layout did.
    public struct Adoption: Sendable, Equatable {
        /// Entries renamed to this layout's names.
        public var adopted = 0
        /// Files named like the previous layout's entries, left alone because the
        /// directory also held files of others.
        public var leftAlone: [String] = []
    }

    /// Takes over a cache of the previous version, which named entries `<id>.jpg` and
    /// counted every such file as its own. Only when its directory holds nothing else
    /// (nothing but names that version gave) can they all be its own: then they are renamed
    /// to `<id>.topregions.jpg`, their last use kept, and its dead downloads removed.
    /// Beside any other file they are left alone, as files someone else may have put there.
    /// Once, under the index lock: the tag then names this layout.
    func adoptPreviousLayout() throws -> Adoption {
        try locks.withLock("index") {
            var adoption = Adoption()
            guard Self.layoutOfTag(in: directory) == 1 else { return adoption }
            let names = try Self.contents(of: directory)
            let entries = names.filter(Self.isPreviousEntryName)
            let temporaries = names.filter { Self.entry(ofTemporary: $0, isEntry: Self.isPreviousEntryName) != nil }
            let onlyTheCaches = names.allSatisfy { name in
                name == Self.tagName || Self.isOwnName(name) || Self.isPreviousEntryName(name)
                    || Self.entry(ofTemporary: name, isEntry: Self.isPreviousEntryName) != nil
            }
            if onlyTheCaches {
                for name in entries {
                    var info = stat()
                    guard lstat(directory + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
                    let renamed = String(name.dropLast(".jpg".count)) + Self.entrySuffix
                    guard rename(directory + "/" + name, directory + "/" + renamed) == 0 else { throw cacheWriteError(errno) }
                    adoption.adopted += 1
                }
                // Unless that version is still downloading it.
                for name in temporaries {
                    guard let entry = Self.entry(ofTemporary: name, isEntry: Self.isPreviousEntryName),
                          let held = try locks.tryLock(Self.photoKey(entry)) else { continue }
                    unlink(directory + "/" + name)
                    held.unlock()
                }
            } else {
                adoption.leftAlone = entries.sorted()
            }
            try Self.writeTag(in: directory)
            return adoption
        }
    }

    /// Marks `directory` as the cache's (this layout).
    static func writeTag(in directory: String) throws {
        try SafeName.writeAtomically(Array(tagText.utf8), to: directory + "/" + tagName)
    }
}
