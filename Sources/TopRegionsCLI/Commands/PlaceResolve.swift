import ArgumentParser
import TopRegionsCore

public struct PlaceResolve: ToolCommand {
    public static let configuration = CommandConfiguration(
        commandName: "place-resolve",
        abstract: "Add each photo's region, looking up every place once, ever.",
        version: toolkitVersion)

    public init() {}

    public func execute(_ context: ToolContext) throws -> SysExit {
        throw ToolError(.unavailable, "not yet available in this version of topregions")
    }
}
