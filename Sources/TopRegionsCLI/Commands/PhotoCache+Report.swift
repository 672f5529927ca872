import TopRegionsCache
import TopRegionsFormatting
import TopRegionsHTTP
import TopRegionsSupport

/// What photo-cache says of each batch: each photo's path (or its record with path and
/// bytes) on stdout, on stderr each photo it could not give, on a terminal the downloads'
/// progress; at the end, by how much the photos printed are over the cap; and the exit
/// status they come to.
struct PhotoCacheReport {
    private let context: ToolContext
    /// A person at a terminal wants the file; a pipe gets records to pass on.
    private let pathsOnly: Bool
    private let capBytes: Int64
    let progress: DownloadProgress
    private var tally = FailureTally()

    init(_ context: ToolContext, pathsOnly: Bool, capBytes: Int64) {
        self.context = context
        self.pathsOnly = pathsOnly
        self.capBytes = capBytes
        progress = DownloadProgress(ProgressLine(context))
    }

    /// The lines to print for `items`, in their order; says on stderr what went wrong.
    mutating func lines(_ items: [PhotoInput.Item], _ batch: PhotoBatch<CachedPhotoResult>) -> [UInt8] {
        var lines: [UInt8] = []
        for item in items {
            switch batch.results[item.id] {
            case .cached(let outcome):
                switch outcome {
                case .hit(let entry): context.trace("photo \(item.id): in the cache, \(entry.path)")
                case .downloaded(let entry): context.trace("photo \(item.id): downloaded, \(Units.formatSize(entry.bytes)), \(entry.path)")
                }
                if outcome.entry.bytes > capBytes {
                    context.trace("photo \(item.id): larger than the cap, kept only until photo-cache next runs")
                }
                if pathsOnly {
                    lines += Array((outcome.entry.path + "\n").utf8)
                } else {
                    lines += PhotoInput.line(for: item, stored: batch.photos[item.id], adding: [
                        ("path", .string(outcome.entry.path)), ("bytes", .number(outcome.entry.bytes)),
                    ])
                }
            case .failed(let error):
                if tally.record(error) {
                    context.diagnose("photo \(item.id): download failed: \(error)\(Self.hint(error))")
                }
            case .unknownPhoto:
                tally.unknownPhoto(item.id, context)
            case .noURL:
                tally.noURL(item.id, image: "photo", context)
            case nil:
                continue  // not tried: the run stopped for a resource failure
            }
        }
        return lines
    }

    /// Prints a batch's lines; throws when a failure of this machine stops the run.
    func write(_ lines: [UInt8]) throws {
        progress.finish()
        context.standardOutput.write(lines)
        context.standardOutput.flush()
        if let stopping = tally.stopping { throw stopping }
    }

    /// The run is over: the cache back under its cap but for what the run printed, which
    /// stays until it exits, even past the cap (then said).
    func finish(_ cache: PhotoCache) {
        progress.finish()
        _ = try? cache.enforceCap()
        let kept = cache.keptByThisRun
        if kept.bytes > cache.capBytes {
            let (photos, are, they) = kept.photos == 1 ? ("photo", "is", "it stays") : ("\(kept.photos) photos", "are", "they stay")
            context.note("""
                this run's \(photos) (\(Units.formatSize(kept.bytes))) \(are) more than the cache's cap \
                (\(Units.formatSize(cache.capBytes))): \(they), \(Units.formatSize(kept.bytes - cache.capBytes)) over it, \
                until photo-cache next runs
                """)
        }
    }

    var status: SysExit { tally.status }

    /// Which option changes a limit the download ran into.
    static func hint(_ error: DownloadError) -> String {
        switch error {
        case .transport(.tooLarge): "; nothing was kept (--max-photo-bytes)"
        case .transport(.timeLimit): "; nothing was kept (--download-timeout)"
        case .notAnImage: "; nothing was kept"
        default: ""
        }
    }
}
