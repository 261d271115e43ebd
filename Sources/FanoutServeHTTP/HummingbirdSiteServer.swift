import FanoutCore
import FanoutServe
import FanoutSite
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// `fanout serve`'s server (docs/serve.md): Hummingbird 2 over HTTP/1.1, answering with the site's
/// pages rendered on request (``SiteResponder``), and the live reload (``ReloadService``), in one service group,
/// stopped gracefully by a ``SiteServer/Stopper``. The executable gives it to the command line.
public struct HummingbirdSiteServer: SiteServing {
    public typealias Settings = SiteServer.Settings
    public typealias WatchedPaths = SiteServer.WatchedPaths
    public typealias Loader = SiteServer.Loader
    public typealias Stopper = SiteServer.Stopper
    public typealias ListenError = SiteServer.ListenError

    public init() {}

    /// The HTTP decoder's limits. The request target counts against `maxHeaderFieldSize` (NIO's llhttp wrapper),
    /// so both are set above what the responder itself refuses with a status that says why (414 past
    /// ``ServePath/maxTargetBytes``, 431 past ``SiteResponder/maxHeaderBytes``); past these the decoder fails
    /// and Hummingbird answers 400 and closes the connection. The idle timeout closes connections that send
    /// nothing (slowloris); it does not apply while a response, such as the event stream, is in progress.
    static let http1: HTTP1Channel.Configuration = {
        var configuration = HTTP1Channel.Configuration(idleTimeout: .seconds(30))
        configuration.httpDecoder = .init(
            maxHeaderFieldSize: 96 * 1024, maxHeaderListSize: 96 * 1024, maxHeaderFieldCount: 200)
        return configuration
    }()

    /// Serves `pages` until `stopper` stops it; `onListening` gets the site's URL once the
    /// server listens, with the real port when `settings.port` is 0. `log` gets a line for the terminal on each
    /// reload. Throws ``ListenError`` when it cannot listen (the port is taken, the address is not this machine's).
    public func run(
        _ pages: SitePages, settings: Settings, watched: WatchedPaths, load: @escaping Loader, stopper: Stopper,
        onListening: @escaping @Sendable (_ url: String) -> Void, log: @escaping @Sendable (String) -> Void
    ) async throws {
        var logger = Logger(label: "fanout.serve", factory: { StreamLogHandler.standardError(label: $0) })
        logger.logLevel = .error
        let store = SiteStore(pages)
        let broadcaster = Broadcaster()
        let cache = PageCache(capacity: settings.pageCacheBytes)
        let host = settings.host.contains(":") ? "[\(settings.host)]" : settings.host
        let app = Application(
            responder: SiteResponder(store: store, broadcaster: broadcaster, cache: cache),
            server: .http1(configuration: Self.http1),
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: nil),
            onServerRunning: { channel in
                onListening("http://\(host):\(channel.localAddress?.port ?? settings.port)/")
            },
            logger: logger)
        let reload = ReloadService(
            watched: watched, store: store, broadcaster: broadcaster, cache: cache, interval: settings.pollInterval,
            load: load, log: log)
        // Stopped in reverse order: the server first, whose graceful shutdown ends the event streams and waits
        // for requests in progress, then the reload.
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: reload), .init(service: app)],
                logger: logger))
        stopper.attach {
            // The event streams end first, and any opened from now on at once: a page still open in a browser
            // reconnects its stream within a second, and an open stream would hold the graceful shutdown.
            broadcaster.finishAll()
            Task { await group.triggerGracefulShutdown() }
        }
        do {
            try await group.run()
        } catch {
            throw Self.listenError(error, settings) ?? error
        }
    }

    /// Fails as ``run(_:settings:watched:load:stopper:onListening:log:)`` would when it cannot listen, but at
    /// once, before a large export is loaded: the address does not resolve or is not this machine's, or the port
    /// is taken. (A port taken between this check and the server's start still fails there, with the same error.)
    public func checkListen(_ settings: Settings) throws(ListenError) {
        do {
            let address = try SocketAddress.makeAddressResolvingHost(settings.host, port: settings.port)
            #if canImport(Glibc)
                let stream = Int32(SOCK_STREAM.rawValue)
            #else
                let stream = SOCK_STREAM
            #endif
            let fd = socket(address.protocolFamily, stream, 0)
            guard fd >= 0 else { throw IOError(errnoCode: errno, reason: "socket") }
            defer { close(fd) }
            // As the server's own socket: a port whose last connections are closing (TIME_WAIT) is free.
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            let bound = address.withSockAddr { bind(fd, $0, socklen_t($1)) }
            guard bound == 0 else { throw IOError(errnoCode: errno, reason: "bind") }
        } catch {
            throw Self.listenError(error, settings)
                ?? ListenError(description: "--bind \(settings.host): cannot listen: \(error)")
        }
    }

    /// The message for an error that means the server cannot listen; nil for any other error.
    private static func listenError(_ error: any Error, _ settings: Settings) -> ListenError? {
        switch error {
        case let error as IOError where error.errnoCode == EADDRINUSE:
            ListenError(
                description: "\(settings.host):\(settings.port): the port is in use; "
                    + "give another with --port N (--port 0 picks a free one)")
        case let error as IOError:
            ListenError(
                description:
                    "\(settings.host):\(settings.port): cannot listen: \(String(cString: strerror(error.errnoCode)))")
        case is SocketAddressError.UnknownHost:
            ListenError(description: "--bind \(settings.host): neither an IP address nor a host name that resolves")
        case is SocketAddressError:
            ListenError(description: "--bind \(settings.host): not an address of this machine (\(error))")
        default:
            nil
        }
    }
}
