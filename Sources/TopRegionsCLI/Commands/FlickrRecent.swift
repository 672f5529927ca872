import ArgumentParser
import TopRegionsCore

public struct FlickrRecent: ToolCommand {
    public static let configuration = CommandConfiguration(
        commandName: "flickr-recent",
        abstract: "Fetch recent geotagged photos from Flickr as photo records.",
        version: toolkitVersion)

    public init() {}

    public func execute(_ context: ToolContext) throws -> SysExit {
        throw ToolError(.unavailable, "not yet available in this version of topregions")
    }
}
