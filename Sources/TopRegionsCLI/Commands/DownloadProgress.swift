import Synchronization
import TopRegionsFormatting
import TopRegionsSupport

/// photo-cache's progress line: photos done of those asked, and bytes received so far,
/// whichever of the parallel downloads they came from.
final class DownloadProgress: Sendable {
    private struct Counts {
        var total = 0
        var done = 0
        var bytes: Int64 = 0
    }
    private let line: ProgressLine
    private let counts = Mutex(Counts())

    init(_ line: ProgressLine) {
        self.line = line
    }

    func begin(_ photos: Int) {
        counts.withLock { $0 = Counts(total: photos) }
    }

    func received(_ bytes: Int) {
        show(counts.withLock { $0.bytes += Int64(bytes); return $0 }, force: false)
    }

    func completed() {
        show(counts.withLock { $0.done += 1; return $0 }, force: true)
    }

    func finish() {
        line.finish()
    }

    private func show(_ counts: Counts, force: Bool) {
        line.update("\(counts.done) of \(Grammar.count(counts.total, "photo")), \(Units.formatSize(counts.bytes)) downloaded", force: force)
    }
}
