import Foundation
import GRDB
import Testing
@testable import TopRegionsCLI
import TopRegionsFlickr
import TopRegionsHTTP
import TopRegionsSupport
import TopRegionsToolkit

/// The one table from failure to exit status: the same failure, the same status, whichever
/// layer reports it.
@Suite struct ExitStatusTests {
    @Test func aTransientNetworkFailureIsTryLaterFromEveryLayer() {
        let refused = HTTPError.connection("Failed to connect to 127.0.0.1 port 1: Couldn't connect to server")
        #expect(ExitStatuses.classify(refused).status == .tempFail)
        #expect(ExitStatuses.classify(FlickrError.transport(method: "flickr.photos.search", refused)).status == .tempFail)
        #expect(ExitStatuses.classify(DownloadError.transport(refused)).status == .tempFail)
        #expect(ExitStatuses.status(of: DownloadError.transport(.timedOut)) == .tempFail)
        #expect(ExitStatuses.status(of: DownloadError.http(status: 503)) == .tempFail)
        #expect(ExitStatuses.status(of: FlickrError.http(method: "m", status: 503)) == .tempFail)
    }

    @Test func refusalsForGoodConfigurationAndStorage() {
        #expect(ExitStatuses.status(of: DownloadError.http(status: 404)) == .unavailable)
        #expect(ExitStatuses.status(of: FlickrError.http(method: "m", status: 404)) == .unavailable)
        #expect(ExitStatuses.status(of: DownloadError.storage("cannot write in the cache: No space left on device", kind: .inputOutput)) == .ioError)
        #expect(ExitStatuses.status(of: DownloadError.transport(.tooLarge(limit: 1024, announced: nil))) == .unavailable)
        #expect(ExitStatuses.status(of: DownloadError.transport(.timeLimit(seconds: 60))) == .unavailable, "not retried, not temporary")
        #expect(ExitStatuses.status(of: DownloadError.notAnImage("not an image (Content-Type text/html)")) == .unavailable)
        let refusedKey = ExitStatuses.classify(FlickrError.api(method: "m", code: 100, message: "Invalid API Key"))
        #expect(refusedKey.status == .config)
        #expect(refusedKey.message == "m: Flickr error 100: Invalid API Key; check FLICKR_API_KEY or --api-key-file")
        #expect(ExitStatuses.classify(DatabaseError(resultCode: .SQLITE_BUSY)).status == .tempFail)
        #expect(ExitStatuses.classify(DatabaseError(resultCode: .SQLITE_FULL)).status == .ioError)
        #expect(ExitStatuses.classify(ToolError(.noInput, "no such region")) == (.noInput, "no such region"))
        #expect(ExitStatuses.classify(Failure(.notFound, "no database at /x")) == (.noInput, "no database at /x"))
    }

    /// Resources that run out: 71 (descriptors, memory) and 74 (disk), from every layer.
    @Test func resourcesThatRunOut() {
        let descriptors = "cannot open a connection: out of file descriptors (limit 64); raise ulimit -n"
        #expect(ExitStatuses.classify(HTTPError.osResource(descriptors)) == (.osResource, descriptors))
        #expect(ExitStatuses.classify(FlickrError.transport(method: "m", .osResource(descriptors))).status == .osResource)
        #expect(ExitStatuses.status(of: DownloadError.transport(.osResource(descriptors))) == .osResource)
        #expect(ExitStatuses.status(of: DownloadError.storage("cannot open the lock file x", kind: .resourceExhausted)) == .osResource)
        #expect(ExitStatuses.classify(ErrnoError("cannot read /x", code: EMFILE)).status == .osResource)
        #expect(ExitStatuses.classify(ErrnoError("cannot write /x", code: ENOSPC)) == (.ioError, "cannot write /x: no space left on the device"))
        #expect(ExitStatuses.classify(ErrnoError("cannot create /x", code: ENOTDIR)) == (.ioError, "cannot create /x: Not a directory"))
        #expect(SystemFailure.error(ENOENT, "cannot open in.ndjson", otherwise: .notFound).kind == .notFound)
        #expect(SystemFailure.error(EMFILE, "cannot open in.ndjson", otherwise: .notFound).kind == .resourceExhausted, "never 66 unless it is missing")
        #expect(ExitStatuses.classify(DatabaseError(resultCode: .SQLITE_NOMEM)).status == .osResource)
    }

    /// Each kind of the libraries' failures ends a tool with its own status, as documented.
    @Test func everyKindOfFailureHasItsStatus() {
        let statuses = Failure.Kind.allCases.map { ExitStatuses.status(of: $0) }
        #expect(statuses.map(\.rawValue) == [64, 65, 66, 69, 70, 71, 73, 74, 75, 78])
    }

    /// Foundation's errors are said in words, never "NSCocoaErrorDomain error 512".
    @Test func foundationErrorsAreSaidInWords() {
        let underlying = NSError(domain: NSPOSIXErrorDomain, code: Int(ENOTDIR))
        let cocoa = NSError(domain: NSCocoaErrorDomain, code: 512, userInfo: [NSUnderlyingErrorKey: underlying])
        let (status, message) = ExitStatuses.classify(cocoa)
        #expect(status == .ioError)
        #expect(message == "Not a directory")
    }

    /// Every status a command declares has a general meaning, and the docs say it.
    @Test func everyDeclaredStatusIsDocumented() {
        for command in Toolkit.commands {
            #expect(command.exitStatuses.first?.status == .ok, "\(command.toolName)")
            for exit in command.exitStatuses { #expect(!exit.meaning.isEmpty && !ExitStatuses.meaning(exit.status).isEmpty) }
            #expect(Set(command.exitStatuses.map(\.status.rawValue)).count == command.exitStatuses.count, "\(command.toolName): a status twice")
        }
    }
}
