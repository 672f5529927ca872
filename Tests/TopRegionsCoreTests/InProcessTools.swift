import Foundation
import Testing
@testable import TopRegionsCLI
import TopRegionsHTTP
import TopRegionsTestSupport
import TopRegionsToolkit

/// The tools run in this process, by name, as `Tools.run` runs the built executables: the
/// same arguments, standard input, environment (`TOPREGIONS_NOW` fixes the clock, as it does
/// for a process) and result, through the context the executables get. For what a pipe, a
/// signal or another process proves nothing more about.
enum InProcessTools {
    static func run(
        _ tool: String, _ arguments: [String], input: [UInt8]? = nil, environment: [String: String], network: Network = .curl,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> RunResult {
        let command = try #require(Toolkit.command(named: tool), "no tool named \(tool)", sourceLocation: sourceLocation)
        var context = ToolContext.memory(toolName: tool, environment: environment, input: input ?? [], network: network)
        context.now = ToolContext.clock(environment: environment)
        let status = command.main(arguments, context: context)
        return RunResult(
            status: status, stdout: context.standardOutput.text, stderr: context.standardError.text, stdoutBytes: context.standardOutput.bytes)
    }
}
