import HTTPTypes
import Hummingbird

/// The test-control endpoints under /_fake. They are never faulted and never logged.
///
///     GET  /_fake/clock                     {"now":T}
///     POST /_fake/clock?advance=SECONDS     moves the virtual clock, answers {"now":T}
///     POST /_fake/clock?set=UNIX            sets it, answers {"now":T}
///     GET  /_fake/faults                    the fault settings as JSON
///     POST /_fake/faults?latency_ms=…&…     replaces all fault settings (missing = default)
///     GET  /_fake/truth[?min_upload_date=…&max_upload_date=…&license=…]
///                                           the ground truth at the current clock, NDJSON
///     GET  /_fake/world                     {"surge_region_id":ID or null,"surge_photos":N}
///     GET  /_fake/received                  {"requests":N}: requests received so far (the
///                                           control ones aside), counted on arrival, before
///                                           any latency or fault, answered or not
struct ControlAPI {
    let state: ServerState

    func respond(method: HTTPRequest.Method, path: String, query: QueryParameters) -> Response {
        do {
            switch (path, method) {
            case ("/_fake/clock", .get):
                return json(clockJSON(state.now))
            case ("/_fake/clock", .post):
                return json(clockJSON(try moveClock(query)))
            case ("/_fake/faults", .get):
                return json(state.faults.options.json)
            case ("/_fake/faults", .post):
                let options = try FaultOptions(controlQuery: query)
                state.faults.replace(with: options)
                return json(options.json)
            case ("/_fake/truth", .get):
                return truth(try TruthQuery(query))
            case ("/_fake/world", .get):
                var object = JSONObject()
                if let region = state.world.surgeRegionID { object.add("surge_region_id", string: region) } else { object.add("surge_region_id", json: "null") }
                object.add("surge_photos", number: Int64(state.world.options.surge))
                return json(object.serialized)
            case ("/_fake/received", .get):
                var object = JSONObject()
                object.add("requests", number: Int64(state.received))
                return json(object.serialized)
            case ("/_fake/clock", _), ("/_fake/faults", _), ("/_fake/truth", _), ("/_fake/received", _), ("/_fake/world", _):
                return error(.methodNotAllowed, "\(method) is not supported on \(path)")
            default:
                return error(.notFound, "no control endpoint \(path)")
            }
        } catch {
            return self.error(.badRequest, "\(error)")
        }
    }

    private func moveClock(_ query: QueryParameters) throws(FakeFlickrError) -> Int64 {
        let valid = WorldOptions.validTimes
        switch (query["advance"], query["set"]) {
        case (let advance?, nil):
            guard let seconds = Int64(advance), let moved = state.advanceClock(by: seconds) else {
                throw FakeFlickrError("advance must be whole seconds that keep the clock within \(valid)")
            }
            return moved
        case (nil, let set?):
            guard let time = Int64(set), valid.contains(time) else { throw FakeFlickrError("set must be Unix seconds within \(valid)") }
            state.now = time
            return time
        default:
            throw FakeFlickrError("give exactly one of advance=SECONDS or set=UNIX")
        }
    }

    private struct TruthQuery {
        var minUploadDate: Int64?
        var maxUploadDate: Int64?
        var licenses: Set<Int>?

        init(_ query: QueryParameters) throws(FakeFlickrError) {
            func date(_ name: String) throws(FakeFlickrError) -> Int64? {
                guard let text = query[name] else { return nil }
                guard let value = Int64(text) else { throw FakeFlickrError("\(name) must be Unix seconds") }
                return value
            }
            minUploadDate = try date("min_upload_date")
            maxUploadDate = try date("max_upload_date")
            if let list = query["license"] {
                var licenses: Set<Int> = []
                for item in list.split(separator: ",") {
                    guard let license = Int(item) else { throw FakeFlickrError("license must be a comma-separated list of ids") }
                    licenses.insert(license)
                }
                self.licenses = licenses
            }
        }
    }

    private func truth(_ query: TruthQuery) -> Response {
        let lines = state.world.groundTruth(
            now: state.now, minUploadDate: query.minUploadDate, maxUploadDate: query.maxUploadDate, licenses: query.licenses)
        let text = lines.map { $0.jsonLine + "\n" }.joined()
        return Response(
            status: .ok, headers: [.contentType: "application/x-ndjson"], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    private func clockJSON(_ now: Int64) -> String {
        var object = JSONObject()
        object.add("now", number: now)
        return object.serialized
    }

    private func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    private func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        var object = JSONObject()
        object.add("error", string: message)
        return json(object.serialized, status: status)
    }
}
