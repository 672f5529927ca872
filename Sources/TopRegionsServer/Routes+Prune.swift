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
            <button>Forget these \(ids.count) photo\(ids.count == 1 ? "" : "s")</button></form>

            """
        return Responses.page(HTMLPage.message(title: "Prune: preview", text: text, site: site, extra: extra))
    }

    /// Forgets the photos stored before the age the preview showed.
    func prune(_ form: [(String, String)]) async throws -> Response {
        let age = try pruneAge(form)
        let cutoff = Int64(now() - age.seconds)
        let writer = self.writer
        let removed = try await blocking.run { try writer.prune(storedBefore: cutoff) }
        forgetComputed()
        trace?("pruned \(removed) photos stored before \(cutoff)")
        return Responses.page(HTMLPage.message(
            title: "Pruned",
            text: "\(removed) photo\(removed == 1 ? " stored more than \(HTMLPage.escape(age.description)) ago is" : "s stored more than \(HTMLPage.escape(age.description)) ago are") forgotten. "
                + "<a href=\"/all\">All photos</a>.", site: site))
    }
}
