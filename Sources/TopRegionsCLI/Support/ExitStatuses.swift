import Foundation
import TopRegionsFlickr
import TopRegionsHTTP
import TopRegionsStore
import TopRegionsSupport

/// The one table from what went wrong to how a tool ends, so the same failure ends every
/// tool with the same status (a refused connection is 75 whether flickr-recent or
/// photo-cache met it). Every command's errors go through `classify`; the per-photo
/// failures of thumb-get and photo-cache through `status(of:)`; the documentation's
/// meanings come from `meaning`.
public enum ExitStatuses {
    /// What a status means, in general; a command may say it more precisely for itself.
    public static func meaning(_ status: SysExit) -> String {
        switch status {
        case .ok: "Success."
        case .failure: "Failure."
        case .usage: "Usage error: an unknown option, a bad value, or options that contradict each other (nothing is changed)."
        case .dataError: "Bad input data: the message names the file and line (and the column, where one place is to blame). Also at the end of a run whose --skip-bad-lines skipped lines, and for a database file that is damaged or another program's."
        case .noInput: "Something asked for does not exist: an input file, the database, a region, a photo to show or fetch."
        case .unavailable: "Flickr or an image server refused for good (an HTTP 4xx, an answer that is not an image, a download over its size or time limit); retrying will not help. For regions-serve, an address it cannot listen on (the port is taken, or the address is not this machine's)."
        case .software: "An internal error (a bug: please report it)."
        case .osResource: "The system ran out of something: file descriptors (ulimit -n), memory, processes. The message says which."
        case .cantCreate: "A file or directory cannot be created: the database or its lock file."
        case .ioError: "A read or write failed: standard output, an input, the cache, the database (a full disk, a quota, an I/O error)."
        case .tempFail: "Temporary: the network failed after retries (refused connection, timeout, HTTP 5xx or 429), a rate or call limit was reached, or the database stayed busy. Try again later; cron will."
        case .config: "Configuration: no API key, a key Flickr refuses, a bad FLICKR_* or TOPREGIONS_* setting, or a database a newer version of the toolkit upgraded (use that version)."
        }
    }

    /// What 69 means for a tool that calls Flickr's API: what `status(of: FlickrError)` calls
    /// unavailable, in words.
    static let flickrRefused = "Flickr refused for good, so retrying will not help: an HTTP 4xx other than 401, 403 (78) and 429 (75), a redirect to a scheme other than http or https, an answer over its size limit."

    /// The status and the message (without the tool's name) for an error that ended a command.
    static func classify(_ error: any Error) -> (status: SysExit, message: String) {
        if let failure = Store.failure(ifDatabaseError: error) {
            return (status(of: failure.kind), failure.message)
        }
        switch error {
        case let error as ToolError:
            return (error.status, error.message)
        case let failure as Failure:
            return (status(of: failure.kind), failure.message)
        case let error as FlickrError:
            var message = error.description
            if case .api(_, 100, _) = error { message += "; check FLICKR_API_KEY or --api-key-file" }
            return (status(of: error), message)
        case let error as DownloadError:
            return (status(of: error), error.description)
        case let error as HTTPError:
            if case .osResource = error { return (.osResource, error.description) }
            return (error.isTransient ? .tempFail : .unavailable, error.description)
        case let error as ErrnoError:
            let described = SystemFailure.error(error.code, error.operation, otherwise: .inputOutput)
            return (status(of: described.kind), described.message)
        default:
            // Foundation's errors carry an errno underneath; say that in words, never
            // "NSCocoaErrorDomain error 512".
            let nsError = error as NSError
            if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
                return (.ioError, String(cString: strerror(Int32(underlying.code))))
            }
            if nsError.domain == NSPOSIXErrorDomain {
                return (.ioError, String(cString: strerror(Int32(nsError.code))))
            }
            return (.software, "internal error: \(error)")
        }
    }

    /// The status each kind of the libraries' `Failure` ends a tool with.
    static func status(of kind: Failure.Kind) -> SysExit {
        switch kind {
        case .invalidArgument: .usage
        case .invalidData: .dataError
        case .notFound: .noInput
        case .unavailable: .unavailable
        case .internalError: .software
        case .resourceExhausted: .osResource
        case .cannotCreate: .cantCreate
        case .inputOutput: .ioError
        case .temporary: .tempFail
        case .misconfigured: .config
        }
    }

    /// A Flickr call that failed: 78 to fix the setup, 75 to try again later, 69 when
    /// Flickr is otherwise unusable.
    static func status(of error: FlickrError) -> SysExit {
        if case .transport(_, .osResource) = error { return .osResource }
        if error.isConfigurationError { return .config }
        return error.isTemporary ? .tempFail : .unavailable
    }

    /// An image download that failed (after retries): 75 when the network or the server
    /// may recover, the storage's own status when it could not be kept (74 for a full disk,
    /// 71 out of descriptors), 69 otherwise (refused for good, over its size or time limit,
    /// not an image).
    static func status(of error: DownloadError) -> SysExit {
        if let resource = error.resourceFailure { return status(of: resource.kind) }
        if error.isTransient { return .tempFail }
        if case .storage(_, let kind) = error { return status(of: kind) }
        return .unavailable
    }
}

extension FlickrError {
    /// How a tool ends when Flickr stops it (see `ExitStatuses`).
    var toolError: ToolError {
        let (status, message) = ExitStatuses.classify(self)
        return ToolError(status, message)
    }
}
