import FanoutCore
import FanoutJSON

/// A multi-path update as a tree of keys, so that a streaming pass over an export finds at each object which
/// of its members the update touches.
indirect enum PatchTree {
    /// The node is replaced by this value (`null` deletes it).
    case set(JSONValue)
    /// Some descendants change; the keys map to their changes.
    case children([String: PatchTree])

    /// The tree of `patch`. Paths split at `/`; an entry below a path that is itself set is merged into the
    /// set value, as Firebase would apply the two in order.
    init(_ patch: RepairPatch) {
        var root = PatchTree.children([:])
        for entry in patch.entries {
            let keys = entry.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            root = root.setting(keys[...], to: entry.value)
        }
        self = root
    }

    private func setting(_ keys: ArraySlice<String>, to value: JSONValue) -> PatchTree {
        guard let key = keys.first else { return .set(value) }
        switch self {
        case .children(var map):
            map[key] = (map[key] ?? .children([:])).setting(keys.dropFirst(), to: value)
            return .children(map)
        case .set(let current):
            return .set(RepairPatch.setting(keys, to: value, in: current.objectMembers == nil ? .object([]) : current))
        }
    }

    /// The value this change writes where nothing was stored: the set value, or an object of the children's
    /// values; nil when that is nothing (deleted, or an object left empty, which Firebase does not store).
    var valueOverNothing: JSONValue? {
        switch self {
        case .set(let value):
            if value.isNull { return nil }
            if let members = value.objectMembers, members.isEmpty { return nil }
            return value
        case .children(let map):
            let members = map.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
                .compactMap { key, child in child.valueOverNothing.map { (key: key, value: $0) } }
            return members.isEmpty ? nil : .object(members)
        }
    }
}
