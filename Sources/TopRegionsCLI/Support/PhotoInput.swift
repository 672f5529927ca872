import Foundation
import TopRegionsHTTP
import TopRegionsRecords
import TopRegionsSupport

/// The photos a tool was given: ids on the command line, and lines on stdin when there are
/// none or one of them is `-`; a line is a photo record (its `id` is used and the record is
/// passed on) or a bare id.
struct PhotoInput {
    /// One photo asked for, with the record to pass on when it came as a record.
    struct Item {
        var id: String
        var object: JSONObject?
    }

    /// Reads items in chunks (what one read delivered, at most `chunk`), handing each chunk
    /// to `handle` in input order, so output streams while input arrives.
    static func read(
        ids: [String], context: ToolContext, chunk: Int = 200, handle: ([Item]) throws -> Void
    ) throws {
        let given = ids.filter { $0 != "-" }
        if let bad = given.first(where: { !PhotoRecord.isPhotoID($0) }) {
            throw ToolError(.usage, "\(Excerpt.quoted(bad)) is not a photo id (decimal digits, at most \(PhotoRecord.maxIDDigits))")
        }
        if !given.isEmpty { try handle(given.map { Item(id: $0, object: nil) }) }
        guard given.count < ids.count || ids.isEmpty else { return }
        context.announceReading("photo ids or records", from: [context.standardInput])
        var pending: [Item] = []
        func flush() throws {
            guard !pending.isEmpty else { return }
            try handle(pending)
            pending.removeAll(keepingCapacity: true)
        }
        try LineReader.forEachLine(in: context.standardInput, afterEachRead: flush) { number, line in
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
            let value: JSONValue
            do throws(JSONSyntaxError) {
                value = try JSONParser.parse(line)
            } catch {
                throw ToolError(.dataError, "stdin: line \(number): not a photo record or id: \(error.message)")
            }
            let item: Item
            switch value {
            case .object(let object):
                guard let id = object["id"]?.scalarText, !id.isEmpty else {
                    throw ToolError(.dataError, "stdin: line \(number): the record has no \"id\"")
                }
                item = Item(id: id, object: object)
            case .string(let id) where !id.isEmpty:
                item = Item(id: id, object: nil)
            case .number(let id):
                item = Item(id: id, object: nil)
            default:
                throw ToolError(.dataError, "stdin: line \(number): expected a photo record or id, found \(value.kindName)")
            }
            guard PhotoRecord.isPhotoID(item.id) else {
                throw ToolError(.dataError, "stdin: line \(number): \(Excerpt.quoted(item.id)) is not a photo id (decimal digits, at most \(PhotoRecord.maxIDDigits))")
            }
            pending.append(item)
            if pending.count >= chunk { try flush() }
        }
        try flush()
    }


    /// The line to print for `item`: the record it came with, or the stored one, plus the
    /// stage's own fields (replacing fields of the same name).
    static func line(for item: Item, stored: StoredPhoto?, adding fields: [(String, JSONValue)]) -> [UInt8] {
        var writer = JSONWriter()
        if var object = item.object {
            for (key, value) in fields { object[key] = value }
            writer.value(.object(object))
        } else if let stored {
            stored.record.write(to: &writer, additional: fields)
        } else {
            var object = JSONObject([(key: "id", value: .string(item.id))])
            for (key, value) in fields { object[key] = value }
            writer.value(.object(object))
        }
        writer.newline()
        return writer.bytes
    }
}

/// Tallies per-photo failures into the exit status, each download failure's status from
/// `ExitStatuses`: a failure that waiting will not fix (74, 73, 69) outranks one that may pass
/// (75), and any download failure outranks photos the database does not have (66). A
/// failure of this machine (disk full, no descriptor left) stops the run: `stopping` is
/// the one error to end with.
struct FailureTally {
    var unknown = 0
    var failures: [SysExit] = []
    var stopping: Failure?

    /// Counts `error`; returns whether it is worth a line of its own (a resource failure is
    /// said once, as the run's last word).
    mutating func record(_ error: DownloadError) -> Bool {
        if let failure = error.resourceFailure {
            if stopping == nil { stopping = failure }
            return false
        }
        failures.append(ExitStatuses.status(of: error))
        return true
    }

    /// A photo the database does not have, said on stderr.
    mutating func unknownPhoto(_ id: String, _ context: ToolContext) {
        unknown += 1
        context.diagnose("photo \(id) is not in the database")
    }

    /// A photo stored without the URL of the image asked for ("thumbnail", "photo").
    mutating func noURL(_ id: String, image: String, _ context: ToolContext) {
        unknown += 1
        context.diagnose("photo \(id) has no \(image) URL")
    }

    var status: SysExit {
        if let stopping { return ExitStatuses.status(of: stopping.kind) }
        // 73 too (a file of the cache that cannot be made: a directory in its way), which
        // this list missed, so such a run ended 0 with its photo not printed.
        for status in [SysExit.ioError, .cantCreate, .unavailable, .tempFail] where failures.contains(status) { return status }
        if let other = failures.first { return other }
        if unknown > 0 { return .noInput }
        return .ok
    }
}
