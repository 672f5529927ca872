import TopRegionsFormatting
import TopRegionsPages
import TopRegionsRecords
import TopRegionsStore

/// regions-top --rising: the regions rising in a window against the one before, in each
/// format, with what the refreshes missed of the two.
extension RegionsTop {
    func writeRising(
        _ window: TimeWindow, queries: Queries, format: ReportFormat, emphasis: Bool, width: Int?, times: TimeFormat, saidEmpty: Bool,
        _ context: ToolContext
    ) throws {
        try Self.timeAnswers(context) { _ = try queries.risingRegions(window: window, limit: limit ?? 50) }
        let answer = try RisingAnswer(window, queries, limit: limit ?? 50, times: times, sentences: context.isVerbose ? .max : 3)
        var rows = answer.rows
        if format == .geojson {
            // Every region a point, as in the top list's GeoJSON: where its photos are when it has no centre stored.
            rows = zip(rows, try queries.fillingCentres(rows.map(\.region))).map { row, region in
                var row = row
                row.region = region
                return row
            }
        }
        if rows.isEmpty && !saidEmpty {
            context.note(answer.noBaseline
                ? "no region can be ranked: " + window.noBaselineSentence(times)
                : "no region rose \(window.phrase(times)) against the \(window.spanWords) before")
        }
        context.standardOutput.write(format == .atom
            ? AtomFeed.rising(rows, window: window, links: .risingFiles, times: times, notes: answer.notes(times))
            : format == .html
            ? HTMLPage.rising(try queries.sampledCentres(rows.map(\.region)).enumerated().map { index, region in
                var row = rows[index]
                row.region = region
                return row
            }, window: window, times: times, coverage: answer.coverage, noBaseline: answer.noBaseline)
            : Reports.rising(rows, format: format, emphasis: emphasis, width: width))
    }
}
