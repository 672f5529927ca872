import ArgumentParser
import FakeFlickr

struct FlickrFake: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flickr-fake", abstract: "An offline Flickr for tests and demos (not yet available).")

    func run() throws {
        throw ExitCode(69)
    }
}

FlickrFake.main()
