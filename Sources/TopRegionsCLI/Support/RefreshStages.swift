import Foundation
import TopRegionsSupport

/// The refresh a user would type, `flickr-recent | place-resolve | regions-load`, as the
/// stages regions-top and regions-serve run it: the three tools installed beside the running
/// program, on one database.
public enum RefreshStages {
    /// Why the refresh cannot run from here, in words that follow "cannot refresh ...: ".
    public struct Unavailable: Error, Sendable {
        public let reason: String
    }

    /// The three stages on the database at `path`: each told `verbosity` (as --quiet or
    /// --verbose), the two that ask Flickr given the key file. `program` is the running
    /// tool's name, for the reason a stage cannot be found.
    public static func installed(
        beside program: String, path: String, verbosity: Verbosity, apiKeyFile: String?
    ) throws(Unavailable) -> [ProcessPipeline.Stage] {
        guard let directory = ProcessPipeline.executableDirectory() else {
            throw Unavailable(reason: "cannot tell where \(program) is installed")
        }
        var shared = ["--db", path]
        switch verbosity {
        case .quiet: shared.append("--quiet")
        case .verbose: shared.append("--verbose")
        case .normal: break
        }
        let key = apiKeyFile.map { ["--api-key-file", $0] } ?? []
        let stages = [
            ProcessPipeline.Stage(directory + "/flickr-recent", shared + key),
            ProcessPipeline.Stage(directory + "/place-resolve", shared + key),
            ProcessPipeline.Stage(directory + "/regions-load", shared),
        ]
        for stage in stages where !FileManager.default.isExecutableFile(atPath: stage.executable) {
            throw Unavailable(reason: "\(stage.name) is not installed beside \(program) (in \(directory))")
        }
        return stages
    }
}
