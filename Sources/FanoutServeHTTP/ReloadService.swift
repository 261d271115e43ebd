import FanoutServe
import Foundation
import NIOPosix
import ServiceLifecycle

/// Live reload (docs/serve.md): polls the watched files, and when they changed and then stayed the
/// same for one more poll (an editor or exporter writing in several steps), loads the site again off the
/// cooperative pool while the old one keeps serving, swaps it in and tells open pages to reload. A load that fails
/// keeps the old site and shows its error on every page until a later one succeeds. Also sends the event streams
/// a keep-alive ping every 15 s, by which a stream whose client went away is noticed and closed.
struct ReloadService: Service {
    let watched: SiteServer.WatchedPaths
    let store: SiteStore
    let broadcaster: Broadcaster
    let cache: PageCache
    let interval: Duration
    let load: SiteServer.Loader
    let log: @Sendable (String) -> Void

    func run() async throws {
        var loaded = (data: FileStamps(watched.data), site: FileStamps(watched.site))
        var previous = loaded
        let pingEvery = max(1, Int(Duration.seconds(15) / interval))
        var tick = 0
        while !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown { [interval] in try await Task.sleep(for: interval) }
            } catch {
                break  // cancelled: the server is stopping
            }
            tick += 1
            if tick % pingEvery == 0 { broadcaster.send(.ping) }
            let now = (data: FileStamps(watched.data), site: FileStamps(watched.site))
            defer { previous = now }
            guard now != loaded, now == previous else { continue }
            let dataChanged = now.data != loaded.data
            loaded = now
            let load = self.load
            let clock = ContinuousClock()
            let start = clock.now
            do {
                // Reading an export and rendering set-up block: a thread of NIO's pool, not the cooperative one.
                let pages = try await NIOThreadPool.singleton.runIfActive { try load(dataChanged) }
                store.replace(with: pages)
                let took = (clock.now - start).components
                let seconds = Double(took.seconds) + Double(took.attoseconds) / 1e18
                log(
                    "reloaded (\(dataChanged ? "the export" : "templates or pages") changed) in "
                        + String(format: "%.1f s", seconds) + "; " + cacheStatus())
            } catch {
                store.fail(String(describing: error))
                log("reload failed, still serving the last good state: \(error)")
            }
            broadcaster.send(.reload)
        }
        broadcaster.finishAll()
    }

    /// The page cache's figures since the start, for the reload's line: pages changed since are rendered again as
    /// they are asked for, the others still answered from memory.
    private func cacheStatus() -> String {
        guard cache.capacity > 0 else { return "no page cache" }
        let usage = cache.usage
        return "page cache: \(usage.pages) pages, \(ByteSize.text(usage.bytes)) of \(ByteSize.text(cache.capacity)), "
            + "\(usage.hits) hits and \(usage.misses) misses so far"
    }
}
