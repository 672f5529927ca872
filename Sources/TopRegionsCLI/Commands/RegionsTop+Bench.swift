import Foundation

extension RegionsTop {
    /// For `bin/bench` alone: with `TOPREGIONS_BENCH_ANSWERS=N` in the environment, the
    /// ranking (top or rising) is answered N more times before the one printed, each time in
    /// milliseconds on stderr, so that the store's answer is timed in a warm process, apart
    /// from starting the program (docs/PERFORMANCE.md, "Windows"). Not a documented option:
    /// nothing a person asks for.
    static func timeAnswers(_ context: ToolContext, _ answer: () throws -> Void) throws {
        guard let text = context.environment["TOPREGIONS_BENCH_ANSWERS"], let times = Int(text), times > 0 else { return }
        for _ in 0..<times {
            let started = DispatchTime.now().uptimeNanoseconds
            try answer()
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
            context.standardError.write("\(context.toolName): bench: answered in \(String(format: "%.3f", elapsed)) ms\n")
        }
    }
}
