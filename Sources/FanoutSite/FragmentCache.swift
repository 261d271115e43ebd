import FanoutTemplates
import Synchronization

/// The build's ``TemplateFragments``: the users of each page of the index as the page rendered them (its
/// `{{#users}}` section), kept in the card store (``CardStore``) beside the post cards, so that a rebuild that
/// rewrites every index page (each shows the site's totals, which one post or like changes) copies the rows of the
/// pages whose users' values did not change instead of rendering them (docs/site.md "Rebuilds, progress and
/// timings").
///
/// A list's key (``TemplateFragmentKey/list(body:items:)``) hashes the section's body and its rows' keys
/// (``IndexRow/fragmentKey``: the row's values, the page's way back to the root and the renderer). Every index page's
/// rows are made (and the list's keys registered here, ``register(list:named:in:)``) by every build that writes the
/// index, rendered or not, so that the store keeps the lists of the pages carried over too.
final class FragmentCache: TemplateFragments, @unchecked Sendable {  // its state is behind `state`'s lock
    private let store: CardStore?

    /// Bytes the cache owns, allocated once and freed with it; only read once kept.
    private struct Owned: @unchecked Sendable {
        let bytes: UnsafeMutableRawBufferPointer
    }

    private struct State {
        /// Rendered by this build: key → bytes the cache owns.
        var rendered: [UInt64: Owned] = [:]
        /// Read from the previous store: key → its record.
        var read: [UInt64: CardStore.Record] = [:]
        /// The keys of the lists of every index page this build made the values of.
        var current: Set<UInt64> = []
        /// ``TemplateSet/listBodyHashes(named:in:)`` by template and list name, made once.
        var bodies: [String: [UInt64]] = [:]
    }

    private let state = Mutex(State())

    private let templates: TemplateSet

    /// `store`: the previous build's, or nil when none is kept (`serve`, a build writing no user pages).
    init(store: CardStore?, templates: TemplateSet) {
        self.store = store
        self.templates = templates
    }

    deinit {
        state.withLock { state in
            for owned in state.rendered.values { owned.bytes.deallocate() }
        }
    }

    /// Notes the list of values whose keys are `items`, which a page of this build gives its template `template` as
    /// `list`: the keys it renders with, one for each section of that name the template may reach.
    func register(list items: [UInt64], named list: String, in template: String) {
        guard store != nil, !items.isEmpty else { return }
        let name = template + "\u{0}" + list
        var bodies = state.withLock { $0.bodies[name] }
        if bodies == nil {
            let made = templates.listBodyHashes(named: list, in: template)
            state.withLock { $0.bodies[name] = made }
            bodies = made
        }
        let keys = bodies!.map { TemplateFragmentKey.list(body: $0, items: items) }
        state.withLock { $0.current.formUnion(keys) }
    }

    func fragment(_ key: UInt64) -> UnsafeRawBufferPointer? {
        guard let store else { return nil }
        if let owned = state.withLock({ $0.rendered[key] }) { return UnsafeRawBufferPointer(owned.bytes) }
        guard let record = store.record(key), let bytes = store.bytes(record) else { return nil }
        state.withLock { $0.read[key] = record }
        return bytes
    }

    func keep(_ key: UInt64, _ bytes: UnsafeRawBufferPointer) {
        guard store != nil else { return }
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 1)
        copy.copyMemory(from: bytes)
        let owned = Owned(bytes: UnsafeMutableRawBufferPointer(rebasing: copy[0..<bytes.count]))
        let kept = state.withLock { state -> Bool in
            guard state.rendered[key] == nil else { return false }
            state.rendered[key] = owned
            return true
        }
        if !kept { copy.deallocate() }
    }

    /// Whether this build rendered or read any list.
    var used: Bool { state.withLock { !$0.rendered.isEmpty || !$0.read.isEmpty } }

    /// What the next store keeps of the lists: those rendered (by key, sorted), those read, and the previous store's
    /// records of the lists this build's index shows but did not render or read (its pages carried over).
    func storeContents() -> (rendered: [(key: UInt64, text: String)], kept: [CardStore.Record], read: Int) {
        guard let store else { return ([], [], 0) }
        return state.withLock { state in
            let rendered = state.rendered.keys.sorted().map { key in
                (key: key, text: String(decoding: UnsafeRawBufferPointer(state.rendered[key]!.bytes), as: UTF8.self))
            }
            let unmade = state.current.filter { state.rendered[$0] == nil && state.read[$0] == nil }
            return (rendered, Array(state.read.values) + store.records(Array(unmade)), state.read.count)
        }
    }
}
