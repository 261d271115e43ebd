import FanoutJSON

/// One Firebase multi-path update: database paths mapped to new values, `null` deleting.
///
/// It is what `updateChildValues` or a REST `PATCH` on the database root takes. Firebase rejects an update in
/// which one path is an ancestor of another, so the patch never holds such a pair: a descendant of a deleted or
/// replaced path is dropped (the ancestor's write covers it) and a descendant of a path set to an object is
/// merged into that object.
public struct RepairPatch: Sendable, Equatable {
    /// The updates, sorted by path (UTF-8 bytes), each path once.
    public let entries: [PatchEntry]

    /// A patch of `entries`; where a path repeats, the last entry wins.
    package init(_ entries: [PatchEntry]) {
        var byPath: [String: JSONValue] = [:]
        for entry in entries { byPath[entry.path] = entry.value }
        self.init(byPath)
    }

    /// A patch setting each path of `updates` to its value.
    package init(_ updates: [String: JSONValue]) {
        var updates = updates
        // Deepest paths first, so that a descendant merged into its ancestor is itself already final.
        let deepestFirst = updates.keys.sorted { $0.utf8.count > $1.utf8.count }
        for path in deepestFirst {
            guard let value = updates[path] else { continue }
            var ancestor = path[...]
            while let slash = ancestor.lastIndex(of: "/") {
                ancestor = ancestor[..<slash]
                guard let covering = updates[String(ancestor)] else { continue }
                updates[path] = nil
                if case .object = covering {
                    let rest = path[path.index(after: slash)...].split(separator: "/").map(String.init)
                    updates[String(ancestor)] = Self.setting(rest[...], to: value, in: covering)
                }
                break
            }
        }
        entries = updates.map { PatchEntry($0.key, $0.value) }
            .sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }

    /// Whether the patch changes nothing.
    public var isEmpty: Bool { entries.isEmpty }

    /// The patch as one JSON object, path → value.
    public var jsonValue: JSONValue { .object(entries.map { (key: $0.path, value: $0.value) }) }

    /// The patch file: one JSON object, keys sorted, two-space indentation.
    public func render() -> String {
        JSONWriter(pretty: true, sortKeys: true).write(jsonValue) + "\n"
    }

    /// `object` with the value at `keys` replaced by `value` (removed for `null`), creating objects on the way.
    package static func setting(_ keys: ArraySlice<String>, to value: JSONValue, in object: JSONValue) -> JSONValue {
        guard let key = keys.first else { return value }
        var members = object.objectMembers ?? []
        let current = members.last { $0.key == key }?.value ?? .object([])
        members.removeAll { $0.key == key }
        let updated = setting(keys.dropFirst(), to: value, in: current)
        if !updated.isNull { members.append((key: key, value: updated)) }
        return .object(members)
    }
}
