import TopRegionsFormatting
import TopRegionsRecords
import TopRegionsStore
import TopRegionsSupport

/// `--region NAME` forgiving what people type, and `--regions`, the names to pick from.
extension RegionsTop {
    /// How many candidates a message lists before "and N more".
    static let listedCandidates = 10

    /// The one region `query` names (see `RegionMatcher` for the tiers). Several that fit as
    /// well as each other are a usage error (64) listing them with their ids; none is 66,
    /// listing the nearest names.
    static func region(named query: String, in queries: Queries) throws -> RegionRank {
        switch try queries.region(matching: query) {
        case .found(let region):
            return region
        case .ambiguous(let regions, let by):
            let heading: String = switch by {
            case .sameName: "\(regions.count) regions are named \"\(query)\"; give one of their ids:"
            case .namePrefix: "\(regions.count) regions have names starting with \"\(query)\"; give more of the name, or an id:"
            case .words: "\(regions.count) regions have names with the words \"\(query)\"; give more of the name, or an id:"
            }
            throw ToolError(.usage, heading + candidateLines(regions))
        case .unknown(let closest):
            guard !closest.isEmpty else {
                throw ToolError(.noInput, "no region named \"\(query)\" (regions-top --regions lists every region)")
            }
            throw ToolError(.noInput, "no region named \"\(query)\"; did you mean" + (closest.count == 1 ? ":" : " one of these:")
                + candidateLines(closest))
        }
    }

    /// One indented line per region: its name, id and photos.
    static func candidateLines(_ regions: [RegionRank]) -> String {
        let listed = regions.prefix(listedCandidates)
        let width = min(listed.map(\.name.count).max() ?? 0, 48)
        var lines: String = listed.map {
            let padding = String(repeating: " ", count: max(width - $0.name.count, 0))
            return "\n  \($0.name)\(padding)  (id \($0.regionID), \(Grammar.count($0.photos, "photo")))"
        }.joined()
        if regions.count > listedCandidates { lines += "\n  and \(regions.count - listedCandidates) more" }
        return lines
    }

    /// `--regions`: every region by name; the names alone unless a format is asked for.
    /// `saidEmpty`: the database was said to be empty, so an empty list needs no word.
    func listRegions(_ queries: Queries, _ context: ToolContext, saidEmpty: Bool) throws {
        var rows = try queries.allRegions(limit: limit)
        if rows.isEmpty && !saidEmpty { context.note(try Self.noRegions(queries)) }
        if format == .geojson { rows = try queries.sampledCentres(rows) }
        let table = format == .table
        context.standardOutput.write(Reports.regionList(
            rows, format: format, emphasis: table && context.useColor, width: table ? context.tableWidth : nil))
    }
}
