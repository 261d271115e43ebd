import FanoutCore
import FanoutLocked
import FanoutSite

/// The site the server answers with: the last one that loaded, swapped whole when a reload succeeds, so that a
/// request keeps the site it started with and never sees half of a reload. A reload that fails leaves the site as
/// it was and records its error, which pages show until a later reload succeeds (docs/serve.md).
final class SiteStore: Sendable {
    struct State: Sendable {
        var pages: SitePages
        /// Why the last reload failed; nil when it succeeded.
        var error: String?
    }

    private let state: Locked<State>

    init(_ pages: SitePages) { state = Locked(State(pages: pages)) }

    var current: State { state.withLock { $0 } }

    func replace(with pages: SitePages) { state.withLock { $0 = State(pages: pages) } }

    func fail(_ message: String) { state.withLock { $0.error = message } }
}
