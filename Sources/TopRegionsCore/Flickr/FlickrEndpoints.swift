/// Where the networked tools talk to Flickr. One setting, `FLICKR_API_BASE`, points all of
/// them at another Flickr (the offline fake, a recording proxy).
public struct FlickrEndpoints: Sendable, Equatable {
    /// The REST endpoint, e.g. `https://api.flickr.com/services/rest/`.
    public var apiBase: String
    /// Where image URLs built from `server`/`secret` point (when Flickr sent no `url_*`).
    public var staticBase: String

    public static let flickrAPI = "https://api.flickr.com/services/rest/"
    public static let flickrStatic = "https://live.staticflickr.com"

    /// `FLICKR_API_BASE` overrides the REST endpoint. Images built from `server`/`secret` go
    /// to `FLICKR_STATIC_BASE` if set, else to the origin of an overridden API base (a fake
    /// serves both), else to live.staticflickr.com.
    public static func from(environment: [String: String]) -> FlickrEndpoints {
        let api = environment["FLICKR_API_BASE"].flatMap { $0.isEmpty ? nil : $0 }
        var staticBase = flickrStatic
        if let explicit = environment["FLICKR_STATIC_BASE"], !explicit.isEmpty {
            staticBase = explicit
        } else if let api, let origin = origin(of: api) {
            staticBase = origin
        }
        return FlickrEndpoints(apiBase: api ?? flickrAPI, staticBase: staticBase)
    }

    /// `scheme://host[:port]` of an http(s) URL.
    static func origin(of url: String) -> String? {
        for scheme in ["http://", "https://"] where url.lowercased().hasPrefix(scheme) {
            let rest = url.dropFirst(scheme.count)
            let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            return host.isEmpty ? nil : String(url.prefix(scheme.count)) + host
        }
        return nil
    }
}
