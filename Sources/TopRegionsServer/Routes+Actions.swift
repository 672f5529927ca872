import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization
import TopRegionsFormatting
import TopRegionsRecords
import TopRegionsStore
import TopRegionsSupport

/// What a person changes from a page, each a POST form carrying the server's token: delete a
/// photo (and undo that), refresh, prune.
extension ServedApp {
    /// The largest form body read (a token and an id or two).
    static let maxFormBytes = 4_096

    func post(_ segments: [String], request: Request) async throws -> Response {
        var request = request
        // Another site's page cannot post here: it does not know the token, and a browser
        // that says where the form came from is believed.
        if let site = request.headers[HTTPField.Name("Sec-Fetch-Site")!], site == "cross-site" {
            throw HTTPAnswer(status: .forbidden, title: "Refused", html: "A page of another site cannot act on this one.")
        }
        try refuseUnlessChangeable("Changing the photos")
        // Refused before its body is waited for.
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > Self.maxFormBytes {
            throw HTTPAnswer(status: .contentTooLarge, title: "Too large", html: "A form here is a few words long.")
        }
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: Self.maxFormBytes)
        } catch {
            throw HTTPAnswer(status: .contentTooLarge, title: "Too large", html: "A form here is a few words long.")
        }
        let form: [(String, String)]
        do {
            form = try FormText.pairs(Substring(String(buffer: body)))
        } catch {
            throw HTTPAnswer.badRequest(FormText.malformedText(error))
        }
        guard let token = FormText.value("token", in: form), FormText.sameToken(token, site.formToken) else {
            throw HTTPAnswer(
                status: .forbidden, title: "Refused",
                html: "This form is not one this server made (or the server restarted since the page was loaded). <a href=\"/\">Start again</a>.")
        }
        switch segments.count {
        case 3 where segments[0] == "photos" && segments[2] == "delete":
            return try await delete(try photoID(segments[1]))
        case 3 where segments[0] == "photos" && segments[2] == "undelete":
            return try await undelete(try photoID(segments[1]))
        case 1 where segments[0] == "refresh":
            return try await startRefresh()
        case 1 where segments[0] == "prune":
            return try await prune(form)
        default:
            throw HTTPAnswer.notFound("No form sends here.")
        }
    }

    /// Deletes the photo so that no refresh brings it back; the store keeps what undo needs.
    func delete(_ photoID: String) async throws -> Response {
        let queries = self.queries, writer = self.writer, now = self.now
        let title: String? = try await blocking.run {
            guard let photo = try queries.photo(id: photoID) else { return nil }
            _ = try writer.delete(ids: [photoID], now: Int64(now()))
            return photo.record.title
        }
        guard let title else { throw HTTPAnswer.notFound("No photo \(photoID) is stored (already deleted?).") }
        forgetComputed()
        trace?("photo \(photoID) deleted")
        let undo = """
            <form class="action" action="\(HTMLPage.escape(site.photo(photoID)))/undelete" method="post">\
            <input type="hidden" name="token" value="\(HTMLPage.escape(site.formToken))"><button>Undo</button></form>

            """
        return Responses.page(HTMLPage.message(
            title: "Photo deleted",
            text: "<q dir=\"auto\">\(HTMLPage.escape(title.isEmpty ? "(untitled)" : title))</q> (photo \(photoID)) is deleted "
                + "from every list, and no refresh will bring it back.", site: site, extra: undo))
    }

    /// Brings a deleted photo back as it was stored (regions-load --undelete's): the record
    /// through the writer, so every count stays exact, with its thumbnail and views.
    func undelete(_ photoID: String) async throws -> Response {
        let writer = self.writer, now = self.now
        let outcome = try await blocking.run { try writer.undelete(ids: [photoID], now: Int64(now()))[photoID] }
        forgetComputed()
        switch outcome {
        case .restored:
            trace?("photo \(photoID) undeleted")
            return Responses.seeOther(site.photo(photoID))
        case .forgotten:
            trace?("photo \(photoID) undeleted (it had been pruned)")
            return Responses.page(HTMLPage.message(
                title: "Deletion undone",
                text: "Photo \(photoID) had been pruned since it was deleted: it is no longer kept out, and the next refresh stores it again if Flickr still lists it.",
                site: site))
        case nil:
            throw HTTPAnswer.notFound("Photo \(photoID) was not deleted: there is nothing to undo.")
        }
    }
}

extension ServedApp {
    /// Starts the refresh and shows its progress.
    func startRefresh() async throws -> Response {
        let queries = self.queries
        switch refresher.start(photos: { (try? queries.count(of: .all)) ?? 0 }) {
        case .started, .alreadyRunning:
            return Responses.seeOther("/refresh")
        case .elsewhere:
            throw HTTPAnswer(status: .conflict, title: "Refreshing elsewhere",
                             html: "Another program is refreshing this database now; its photos show here as they are stored.")
        case .noKey:
            throw HTTPAnswer(status: .conflict, title: "No Flickr key",
                             html: "A refresh needs a Flickr API key: start regions-serve with FLICKR_API_KEY set (or --api-key-file).")
        case .cannot(let why):
            throw HTTPAnswer(status: .internalServerError, title: "Cannot refresh", html: HTMLPage.escape(why))
        }
    }

    /// Where the refresh stands; the page reloads itself while it runs.
    func refreshProgress() async throws -> Response {
        let queries = self.queries
        let stored = try await blocking.run { try queries.count(of: .all) }
        let text: String
        var reload: Int?
        switch refresher.current {
        case .idle:
            text = "No refresh has run since this server started. The Refresh button above fetches the latest photos from Flickr."
        case .running(let since, let before):
            let seconds = max(0, Int(now() - since))
            text = "Fetching the latest photos from Flickr (flickr-recent | place-resolve | regions-load), for \(seconds) s so far: "
                + "\(stored) photos stored, \(max(0, stored - before)) of them new. This page follows it."
            reload = 1
        case .finished(_, let status, let message, let new):
            forgetComputed()  // the pages it links to show what the refresh stored
            // The message names the stage and its status (regression: "status 78, status 78").
            text = status == 0
                ? "The refresh finished: \(new) new photo\(new == 1 ? "" : "s"), \(stored) stored. <a href=\"/\">The top regions</a> show them."
                : "The refresh failed: \(HTMLPage.escape(message)). What it stored before stays. The server's terminal says why."
        }
        return Responses.page(HTMLPage.message(title: "Refresh", text: text, site: site, reloadAfter: reload))
    }
}

extension ServedApp {
    /// A change asked of a database this server cannot write: 503, saying why.
    func refuseUnlessChangeable(_ what: String) throws {
        guard !canChange else { return }
        throw HTTPAnswer(
            status: .serviceUnavailable, title: "Read-only",
            html: "\(what) is not possible here: this server reads the database as it is (a read-only filesystem, or a file it may not write). "
                + "Run regions-serve as a user who may write it, on a writable copy, to change it.")
    }
}
