import Foundation
import Hummingbird
import TopRegionsFormatting
import TopRegionsRecords
import TopRegionsStore
import TopRegionsSupport

/// Pruning old photos from a page, as `regions-load --prune-older-than AGE` does: the age
/// needs its unit, the preview (a GET, which changes nothing) lists what would go, and only
/// its form's POST, with the token, forgets them.
extension ServedApp {
    /// The age a form gave: a number without its unit is refused, as everywhere.
    func pruneAge(_ form: [(String, String)]) throws -> Age {
        let text = FormText.value("older_than", in: form)?.trimmingCharacters(in: .whitespaces) ?? ""
        do {
            return try Age(text, positive: true)
        } catch {
            throw HTTPAnswer.badRequest("Prune photos stored how long ago? " + HTMLPage.escape(error.description)
                + " <a href=\"/all\">Back to All photos</a>.")
        }
    }

    /// What pruning would forget: nothing changes.
    func prunePreview(_ query: [(String, String)]) async throws -> Response {
        let age = try pruneAge(query)
        let cutoff = Int64(now() - age.seconds)
        let writer = self.writer, queries = self.queries, site = self.site, times = self.times
        let (ids, shown) = try await blocking.run {
            let ids = try writer.photosStored(before: cutoff)
            return (ids, try queries.photos(ids: Array(ids.prefix(Paging.size))))
        }
        var text = "\(ids.count) photo\(ids.count == 1 ? " was" : "s were") stored before \(HTMLPage.escape(times.string(cutoff))) "
            + "(more than \(HTMLPage.escape(age.description)) ago)"
        guard !ids.isEmpty else {
            return Responses.page(HTMLPage.message(title: "Prune", text: text + ": nothing to prune.", site: site))
        }
        text += " and would be forgotten, with their thumbnails; every count stays exact. Nothing has changed yet."
        var extra = "<ul>\n"
        for id in ids.prefix(Paging.size) {
            let title = shown[id].map { $0.record.title.isEmpty ? "(untitled)" : $0.record.title } ?? id
            extra += "<li><a href=\"\(HTMLPage.escape(site.photo(id)))\" dir=\"auto\">\(HTMLPage.escape(title))</a></li>\n"
        }
        if ids.count > Paging.size { extra += "<li>and \(ids.count - Paging.size) more</li>\n" }
        extra += """
            </ul>
            <form class="action" action="/prune" method="post"><input type="hidden" name="token" value="\(HTMLPage.escape(site.formToken))">\
            <input type="hidden" name="older_than" value="\(HTMLPage.escape(age.description))">\
            <input type="hidden" name="before" value="\(cutoff)"><input type="hidden" name="photos" value="\(Self.pruneDigest(ids))">\
            <button>Forget these \(ids.count) photo\(ids.count == 1 ? "" : "s")</button></form>

            """
        return Responses.page(HTMLPage.message(title: "Prune: preview", text: text, site: site, extra: extra))
    }

    /// Which photos a preview listed, in a form's field: their count and a hash of their
    /// ids (in order), so that the button forgets those, or nothing.
    static func pruneDigest(_ ids: [String]) -> String {
        "\(ids.count)-" + String(Responses.fnv1a(Array(ids.joined(separator: "\n").utf8)), radix: 16)
    }

    /// Forgets the photos the preview listed: those stored before its time (`before`, not
    /// the age again, which would reach photos stored since), and only if they are still
    /// those (`photos`); else nothing, and the preview again.
    func prune(_ form: [(String, String)]) async throws -> Response {
        let age = try pruneAge(form)
        guard let cutoff = FormText.value("before", in: form).flatMap({ Int64($0) }),
              let shown = FormText.value("photos", in: form), !shown.isEmpty
        else {
            throw HTTPAnswer.badRequest("Prune from its preview, which says what would go. <a href=\"/all\">Back to All photos</a>.")
        }
        let writer = self.writer
        let removed = try await blocking.run { try writer.prune(storedBefore: cutoff, ifStill: { Self.pruneDigest($0) == shown }) }
        guard let removed else {
            let again = "/prune?older_than=" + (age.description.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            return Responses.page(HTMLPage.message(
                title: "Prune: nothing changed",
                text: "The photos stored before \(HTMLPage.escape(times.string(cutoff))) are not those the preview listed any more "
                    + "(a refresh or a delete changed them since): nothing was forgotten. "
                    + "<a href=\"\(HTMLPage.escape(again))\">See what would go now</a>.", site: site), status: .conflict)
        }
        forgetComputed()
        trace?("pruned \(removed) photos stored before \(cutoff)")
        return Responses.page(HTMLPage.message(
            title: "Pruned",
            text: "\(removed) photo\(removed == 1 ? " stored more than \(HTMLPage.escape(age.description)) ago is" : "s stored more than \(HTMLPage.escape(age.description)) ago are") forgotten. "
                + "<a href=\"/all\">All photos</a>.", site: site))
    }
}
