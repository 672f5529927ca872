import Foundation
import TopRegionsCache
import TopRegionsRecords
import TopRegionsSupport

/// What thumb-get says of each batch: each photo's record on stdout with its thumbnail's
/// bytes (and, with --out, the file written), on stderr each photo it could not give, on a
/// terminal how many thumbnails are downloaded so far; and the exit status they come to.
struct ThumbGetReport {
    private let context: ToolContext
    private let out: String?
    private let progress: ProgressLine
    private var tally = FailureTally()
    private var downloaded = 0

    init(_ context: ToolContext, out: String?) {
        self.context = context
        self.out = out
        progress = ProgressLine(context)
    }

    /// The next batch's progress, counted on from the batches before.
    var batchProgress: @Sendable (Int, Int) -> Void {
        let (before, progress) = (downloaded, self.progress)
        return { done, total in
            progress.update("\(before + done) \(before + done == 1 ? "thumbnail" : "thumbnails") downloaded (\(done) of \(total) in this batch)", force: done == total)
        }
    }

    /// Says what `batch` came to for `items`, in their order; throws when a failure of this
    /// machine stops the run.
    mutating func report(_ items: [PhotoInput.Item], _ batch: PhotoBatch<ThumbnailResult>) throws {
        var lines: [UInt8] = []
        for item in items {
            switch batch.results[item.id] {
            case .found(let bytes, let fresh):
                if fresh { downloaded += 1 }
                context.trace("photo \(item.id): \(fresh ? "downloaded" : "from the database"), \(Grammar.count(bytes.count, "byte"))")
                var fields: [(String, JSONValue)] = []
                if let out {
                    let path = (out as NSString).appendingPathComponent(SafeName.fileName(for: item.id, extension: "jpg"))
                    try SafeName.writeAtomically(bytes, to: path)
                    fields.append(("thumb_path", .string(path)))
                }
                fields.append(("thumb_bytes", .number(Int64(bytes.count))))
                lines += PhotoInput.line(for: item, stored: batch.photos[item.id], adding: fields)
            case .unknownPhoto:
                tally.unknownPhoto(item.id, context)
            case .noURL:
                tally.noURL(item.id, image: "thumbnail", context)
            case .failed(let error):
                if tally.record(error) {
                    let hint = switch error {
                    case .transport(.tooLarge), .notAnImage: "; nothing was stored"
                    case .transport(.timeLimit): "; nothing was stored (--download-timeout)"
                    default: ""
                    }
                    context.diagnose("photo \(item.id): thumbnail download failed: \(error)\(hint)")
                }
            case nil:
                continue  // not tried: the run stopped for a resource failure
            }
        }
        progress.finish()
        context.standardOutput.write(lines)
        context.standardOutput.flush()
        if let stopping = tally.stopping { throw stopping }
    }

    func finish() {
        progress.finish()
    }

    var status: SysExit { tally.status }
}
