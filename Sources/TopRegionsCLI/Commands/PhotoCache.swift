import ArgumentParser
import TopRegionsCore

public struct PhotoCache: ToolCommand {
    public static let configuration = CommandConfiguration(
        commandName: "photo-cache",
        abstract: "Full-size photos through a small LRU file cache; prints their paths.",
        version: toolkitVersion)

    public init() {}

    public func execute(_ context: ToolContext) throws -> SysExit {
        throw ToolError(.unavailable, "not yet available in this version of topregions")
    }
}
