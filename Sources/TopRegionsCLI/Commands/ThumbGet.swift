import ArgumentParser
import Foundation
import TopRegionsCache
import TopRegionsHTTP
import TopRegionsRecords
import TopRegionsStore
import TopRegionsSupport

public struct ThumbGet: ToolCommand {
    public static let configuration = CommandConfiguration(
        commandName: "thumb-get",
        abstract: "Square thumbnails for photos, downloaded once and kept in the database.",
        discussion: """
            For each photo given (ids as arguments, else photo records or ids on standard input), \
            finds its 75 px square thumbnail in the database, or downloads it once from the \
            photo's stored thumb_url and keeps it there: asking again never downloads again, and \
            no thumbnail is downloaded for a photo nobody asked for. Prints each photo's record \
            with thumb_bytes, and thumb_path when --out writes the file DIR/<id>.jpg.

            A photo the database does not have, or a download that fails (after retries), is \
            reported on stderr and the others carry on; the exit status then says what went \
            wrong (66 unknown photos, 69 or 75 failed downloads).

            Examples:
              regions-top --region "Nova Scotia, Canada" | thumb-get --out thumbs/
              thumb-get 53120987654 53120987655
            """,
        version: toolkitVersion)

    @OptionGroup public var database: DatabaseOptions

    @Option(name: .long, help: ArgumentHelp("Also write each thumbnail to DIR/<id>.jpg (DIR is created).", valueName: "dir"))
    public var out: String?

    @Option(name: .long, help: ArgumentHelp("Download at most this many thumbnails at once.", valueName: "n"))
    public var parallel = 4

    @Argument(help: ArgumentHelp("Photo ids ('-' or none: records or ids on standard input).", valueName: "id"))
    public var ids: [String] = []

    public init() {}

    public func validate() throws {
        guard (1...32).contains(parallel) else { throw ValidationError("--parallel must be between 1 and 32") }
    }

    public func execute(_ context: ToolContext) throws -> SysExit {
        try CurlSession.requireLibrary()
        let store = try database.open(context, create: false)
        let queries = Queries(store: store)
        let thumbnails = Thumbnails(store: store)
        if let out {
            do {
                try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            } catch {
                throw ToolError(.cantCreate, "cannot create \(out): \(error.localizedDescription)")
            }
        }
        let retry = RetryPolicy.from(environment: context.environment, maxAttempts: 5)
        var tally = FailureTally()
        try PhotoInput.read(ids: ids, context: context) { items in
            let photos = try queries.photos(ids: items.map(\.id))
            let results = try thumbnails.thumbnails(
                for: items.map(\.id), photos: photos, parallel: parallel, retry: retry, now: context.now)
            var lines: [UInt8] = []
            for item in items {
                switch results[item.id]! {
                case .found(let bytes, _):
                    var fields: [(String, JSONValue)] = []
                    if let out {
                        let path = (out as NSString).appendingPathComponent(SafeName.fileName(for: item.id, extension: "jpg"))
                        try SafeName.writeAtomically(bytes, to: path)
                        fields.append(("thumb_path", .string(path)))
                    }
                    fields.append(("thumb_bytes", .number(Int64(bytes.count))))
                    lines += PhotoInput.line(for: item, stored: photos[item.id], adding: fields)
                case .unknownPhoto:
                    tally.unknown += 1
                    context.diagnose("photo \(item.id) is not in the database")
                case .noURL:
                    tally.unknown += 1
                    context.diagnose("photo \(item.id) has no thumbnail URL")
                case .failed(let error):
                    tally.record(error)
                    context.diagnose("photo \(item.id): thumbnail download failed: \(error)")
                }
            }
            context.standardOutput.write(lines)
            context.standardOutput.flush()
        }
        return tally.status
    }
}
