import TopRegionsSupport

/// An environment variable a tool reads, as its documentation states it. Each command
/// lists the ones it reads (`ToolCommand.environment`); `--help`, the man pages and the
/// README's table are all made from those lists.
public struct EnvironmentVariable: Sendable, Hashable {
    public var name: String
    public var meaning: String

    public init(_ name: String, _ meaning: String) {
        self.name = name
        self.meaning = meaning
    }
}

/// The variables, in groups by what reads them, so a tool lists a group only when it
/// does that thing (a tool that never calls Flickr's API does not list FLICKR_API_KEY).
extension EnvironmentVariable {
    /// Every tool that opens the database.
    public static let database: [EnvironmentVariable] = [
        .init("TOPREGIONS_DB", "The database file, when --db is not given."),
        .init("XDG_DATA_HOME", "The database defaults to $XDG_DATA_HOME/topregions/topregions.db (~/.local/share/topregions/topregions.db when unset)."),
    ]

    /// The tools that call Flickr's REST API (flickr-recent, place-resolve).
    public static let flickrAPI: [EnvironmentVariable] = [
        .init("FLICKR_API_KEY", "The Flickr API key (or --api-key-file). Never printed, logged or put in an error."),
        .init("FLICKR_API_BASE", "Another REST endpoint (the offline fake, a proxy). Default: https://api.flickr.com/services/rest/."),
        .init("FLICKR_HOURLY_LIMIT", "Flickr calls allowed per sliding hour, summed over every tool and process using the database (default 3500, under Flickr's 3,600 per key)."),
    ]

    /// The tools that build image URLs from a photo's server and secret.
    public static let imageURLs: [EnvironmentVariable] = [
        .init("FLICKR_STATIC_BASE", "Where image URLs built from a photo's server and secret point. Default: the origin of FLICKR_API_BASE when set, else https://live.staticflickr.com."),
    ]

    /// Every tool that makes HTTP requests.
    public static let transfers: [EnvironmentVariable] = [
        .init("http_proxy, https_proxy, ALL_PROXY, NO_PROXY", "Proxies, as libcurl reads them."),
        .init("TOPREGIONS_BACKOFF_SCALE", "For tests: multiplies the backoff between retries (0.01 makes it 100 times shorter)."),
    ]

    /// photo-cache, and regions-top for its pages' links to cached photos.
    public static let cache: [EnvironmentVariable] = [
        .init("TOPREGIONS_CACHE", "The photo cache directory, when --cache-dir is not given."),
        .init("XDG_CACHE_HOME", "The cache defaults to $XDG_CACHE_HOME/topregions/photos (~/.cache/topregions/photos when unset)."),
    ]

    /// Every tool whose work depends on the time (what it stores, what it prunes).
    public static let clock: [EnvironmentVariable] = [
        .init("TOPREGIONS_NOW", "For tests and reproducible runs: the current time, in whole Unix seconds up to the end of year 9999 (anything else is a configuration error, 78; empty is unset)."),
    ]

    /// The tools that print times for people, or read them (flickr-recent --since).
    public static let timeZone: [EnvironmentVariable] = [
        .init("TZ", "The local time zone: times are shown in it, and times given without a zone are read in it (default: the system's)."),
    ]

    /// `timeZone`, for the tools that have --utc.
    public static let timeZoneOrUTC: [EnvironmentVariable] = [
        .init("TZ", "The local time zone: times are shown in it, and times given without a zone are read in it (default: the system's; --utc shows UTC)."),
    ]

    /// The tools that print tables for people.
    public static let terminal: [EnvironmentVariable] = [
        .init("COLUMNS", "The width tables are fitted to (default: the terminal's width; no limit when not on a terminal)."),
        .init("NO_COLOR", "When set and not empty, tables have no emphasis (also when TERM is dumb)."),
    ]
}

/// One exit status in a tool's documentation: the status, and what it means for this tool
/// (by default, the general meaning from `ExitStatuses`).
public struct ExitStatusDoc: Sendable {
    public var status: SysExit
    public var meaning: String

    public init(_ status: SysExit, _ meaning: String? = nil) {
        self.status = status
        self.meaning = meaning ?? ExitStatuses.meaning(status)
    }

    /// The database's part of 65 and 78, for the tools that say those statuses their own way.
    static let foreignDatabase = "Also: the database file is damaged, or another program's."
    static let newerDatabase = "A newer version of the toolkit upgraded the database: use that version."
}

extension ToolCommand {
    /// The ENVIRONMENT and EXIT STATUS sections that `--help` prints after the options.
    public static func helpSections(columns: Int = 80) -> String {
        var text = ""
        if !environment.isEmpty {
            text += "\nENVIRONMENT:\n"
            for variable in environment { text += HelpText.entry(variable.name, variable.meaning, columns: columns) }
        }
        text += "\nEXIT STATUS:\n"
        for exit in exitStatuses { text += HelpText.entry("\(exit.status.rawValue)", exit.meaning, columns: columns, textColumn: 8) }
        return text
    }
}

/// Lays out help entries as ArgumentParser lays out options: the name indented by two,
/// the text from column 26 (or on the next line when the name is longer), wrapped.
enum HelpText {
    static let labelColumn = 2
    static let textColumn = 26

    static func entry(_ label: String, _ text: String, columns: Int, textColumn: Int = textColumn) -> String {
        let indent = String(repeating: " ", count: textColumn)
        let lines = wrap(text, width: max(20, columns - textColumn))
        var head = String(repeating: " ", count: labelColumn) + label
        var out = ""
        if head.count + 2 > textColumn {
            out += head + "\n"
            head = indent
        } else {
            head += String(repeating: " ", count: textColumn - head.count)
        }
        for (index, line) in lines.enumerated() {
            out += (index == 0 ? head : indent) + line + "\n"
        }
        return out
    }

    /// Words of `text` in lines of at most `width` characters (a longer word stands alone).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
