import FanoutLocked
import FanoutSite

/// An HTTP server that serves the site for `fanout serve` (docs/serve.md). The command line declares what it needs
/// here and the executable gives the one it runs (`FanoutServeHTTP`'s ``HummingbirdSiteServer``), so that the
/// commands library, and the tests built on it, do not carry an HTTP stack: Hummingbird and SwiftNIO were about
/// two fifths of the tests' debug build (CONTRIBUTING.md "Architecture").
public protocol SiteServing: Sendable {
    /// Whether `settings` can be listened on, asked before the export is read (which takes seconds for a large one).
    func checkListen(_ settings: SiteServer.Settings) throws(SiteServer.ListenError)

    /// Serves `pages` until `stopper` stops it, calling `onListening` with the site's URL once it listens, loading
    /// the site again (`load`) when a watched file changes, and telling `log` what a reload did.
    func run(
        _ pages: SitePages, settings: SiteServer.Settings, watched: SiteServer.WatchedPaths,
        load: @escaping SiteServer.Loader, stopper: SiteServer.Stopper,
        onListening: @escaping @Sendable (_ url: String) -> Void, log: @escaping @Sendable (String) -> Void
    ) async throws
}

/// What every ``SiteServing`` server is given: where to listen, what to watch, how to load the site again and how
/// to stop.
public enum SiteServer {
    /// Loads the site again; `exportChanged` says whether the export (rather than only templates or pages) changed.
    public typealias Loader = @Sendable (_ exportChanged: Bool) throws -> SitePages

    /// What the live reload watches: the export's files, and the site's own (templates, `Content/`).
    public struct WatchedPaths: Sendable {
        public var export: [String]
        public var site: [String]
        public init(export: [String], site: [String]) {
            self.export = export
            self.site = site
        }
        package var data: [String] { export }
    }

    /// Where to listen and how.
    public struct Settings: Sendable {
        public var host: String
        /// 0 picks a free port.
        public var port: Int
        public var pollInterval: Duration
        /// The most bytes of rendered pages kept in memory (docs/serve.md "The page cache"); 0 keeps none.
        public var pageCacheBytes: Int
        /// `--page-cache-size`'s default: about ten thousand timeline pages of a large export.
        public static let defaultPageCacheBytes = 256_000_000
        public init(
            host: String, port: Int, pollInterval: Duration = .milliseconds(500),
            pageCacheBytes: Int = defaultPageCacheBytes
        ) {
            self.host = host
            self.port = port
            self.pollInterval = pollInterval
            self.pageCacheBytes = pageCacheBytes
        }
    }

    /// Stops a running server gracefully: it stops accepting, finishes the requests in progress, ends the event
    /// streams and returns. Whoever handles the process's signals calls it (the command line, on SIGINT and
    /// SIGTERM); a stop before the server runs stops it as soon as it does.
    public final class Stopper: Sendable {
        private let state = Locked<(stop: (@Sendable () -> Void)?, stopped: Bool)>((nil, false))

        public init() {}

        public func stop() {
            let stop = state.withLock { state in
                state.stopped = true
                return state.stop
            }
            stop?()
        }

        /// How the running server stops (called at once if a stop came before it ran).
        package func attach(_ stop: @escaping @Sendable () -> Void) {
            if state.withLock({ state in
                state.stop = stop
                return state.stopped
            }) {
                stop()
            }
        }
    }

    /// Why the server could not start.
    public struct ListenError: Error, CustomStringConvertible {
        public let description: String
        package init(description: String) { self.description = description }
    }
}
