import ArgumentParser
import TopRegionsCore

public struct ThumbGet: ToolCommand {
    public static let configuration = CommandConfiguration(
        commandName: "thumb-get",
        abstract: "Square thumbnails for photos, downloaded once and kept in the database.",
        version: toolkitVersion)

    public init() {}

    public func execute(_ context: ToolContext) throws -> SysExit {
        throw ToolError(.unavailable, "not yet available in this version of topregions")
    }
}
