import FakeFlickr
import Foundation
import Testing
import TopRegionsTestSupport

@Suite("Server")
struct ServerTests {
    @Test("many requests on one curl command line share one kept-alive connection")
    func keepAlive() async throws {
        try await RunningFake.with { fake in
            let urls = (1...20).map { page in
                page % 4 == 0
                    ? "\(fake.baseURL)/65535/1_2_s.jpg"
                    : fake.rest([("method", "flickr.photos.search"), ("per_page", "10"), ("page", String(page))])
            }
            let result = try await Curl.getMany(urls, ["--write-out", "%{num_connects}\n"])
            #expect(result.output.split(separator: "\n") == ["1"] + Array(repeating: "0", count: 19))
            #expect(result.bodies.count == 20)
        }
    }

    @Test("the command line prints the base URL first and exits 0 on SIGTERM")
    func commandLine() async throws {
        let binary = try flickrFakeExecutable()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--port", "0", "--photos", "50", "--future-photos", "5"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let exited = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { exited.continuation.yield($0.terminationStatus) }
        let chunks = AsyncStream<Data>.makeStream()
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty { chunks.continuation.finish() } else { chunks.continuation.yield(data) }
        }
        try process.run()
        // The base URL is flushed at once: the first line arrives without the process exiting.
        var text = ""
        for await chunk in chunks.stream {
            text += String(decoding: chunk, as: UTF8.self)
            if text.contains("\n") { break }
        }
        output.fileHandleForReading.readabilityHandler = nil
        let firstLine = String(text.prefix { $0 != "\n" })
        #expect(firstLine.wholeMatch(of: /http:\/\/127\.0\.0\.1:[0-9]+/) != nil, "\(firstLine)")
        let clock = try await Curl.json(firstLine + "/_fake/clock")
        #expect(clock["now"] as? Int == 1_763_800_000)
        process.terminate()
        var statuses = exited.stream.makeAsyncIterator()
        #expect(await statuses.next() == 0)
    }

    @Test("bad options are refused before anything listens")
    func validation() throws {
        var configuration = FakeFlickrConfiguration()
        configuration.world.regions = WorldOptions.maximumRegions + 1
        #expect(throws: FakeFlickrError.self) { try FakeFlickrServer(configuration: configuration) }
        configuration = FakeFlickrConfiguration()
        configuration.faults.fail500 = 1.5
        #expect(throws: FakeFlickrError.self) { try FakeFlickrServer(configuration: configuration) }
    }
}
