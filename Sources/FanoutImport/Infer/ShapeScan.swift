import FanoutJSON

/// One pass over an export's tree that finds where keyed things sit: the record sets (objects of fields under
/// keys that are IDs) and the edge sets (IDs under IDs, as keys or in arrays), each with every item it holds.
///
/// A level of the tree is a map of IDs when its keys look like IDs or when siblings rarely share them; otherwise
/// its keys are field names. The scan keeps references into the one tree, so it costs the items' paths only.
package struct ShapeScan {
    /// A place in the tree: literal keys, and nil where a key is captured.
    package typealias Place = [String?]

    /// One value at a place: its path, the keys captured on the way, and the value.
    package struct Item {
        package let path: [String]
        package let keys: [String]
        package let value: JSONValue
    }

    /// Objects of fields at `place`, each under its own key (the last captured).
    package struct RecordSet {
        package let place: Place
        package let items: [Item]
        /// Every record's key (its last capture).
        package let keys: Set<String>
        /// Field paths (up to three keys deep) with a scalar in some record, in first-seen order.
        package let fields: [String]
    }

    /// Pairs of IDs at `place`: `from` is the next-to-last capture, `to` the last (or, in an array, its element).
    package struct EdgeSet {
        package enum Storage: Equatable {
            /// `to` is a key holding `true`, `1` or a scalar.
            case keys
            /// `to` is a key holding an object (a row: a timeline entry, a follower's document).
            case rows
            /// `to` is an element of an array under `from`'s record (`likes: ["uid1", "uid2"]`).
            case array
            /// `to` is the value of a field of a row keyed by an ID of its own (`following/{uid}/{pushId}:
            /// {key: "uid2"}`).
            case field(String)
        }
        package let place: Place
        package let storage: Storage
        package let pairs: [(from: String, to: String, path: [String])]
        /// For rows, the rows themselves (aligned with `pairs`).
        package let rows: [JSONValue]

        /// The field naming `to`, for rows that name it in a field.
        package var field: String? {
            if case .field(let name) = storage { return name }
            return nil
        }
    }

    package internal(set) var records: [RecordSet] = []
    package internal(set) var edges: [EdgeSet] = []
    /// Where a budget of levels stopped the scan (deeper levels are not read).
    static let maximumDepth = 8

    /// The keys of each top-level collection of records or edges (a map whose values are objects or `true`): a
    /// level whose keys are mostly one collection's keys is a map of IDs, however little its keys look like IDs
    /// (`reactions: {ann: true}` in an app whose users are keyed by name).
    let collectionKeys: [Set<String>]

    package init(_ root: JSONValue) {
        collectionKeys = (root.objectMembers ?? []).compactMap { _, value in
            guard let members = value.objectMembers, !members.isEmpty,
                members.allSatisfy({ $0.value.objectMembers != nil || $0.value == .bool(true) })
            else { return nil }
            return Set(members.map(\.key))
        }
        for (key, value) in root.objectMembers ?? [] {
            visit([key], [Item(path: [key], keys: [], value: value)], depth: 1)
        }
    }

    private mutating func visit(_ place: Place, _ items: [Item], depth: Int) {
        guard depth < Self.maximumDepth else { return }
        let captures = place.filter { $0 == nil }.count
        // Arrays of strings under a record are edges stored as arrays of IDs.
        if captures >= 1 {
            var pairs: [(from: String, to: String, path: [String])] = []
            for item in items {
                guard let elements = item.value.arrayValue, let from = item.keys.last else { continue }
                for (index, element) in elements.enumerated() {
                    if let id = element.stringValue { pairs.append((from, id, item.path + [String(index)])) }
                }
            }
            if !pairs.isEmpty { edges.append(EdgeSet(place: place + [nil], storage: .array, pairs: pairs, rows: [])) }
        }
        let objects = items.filter { $0.value.objectMembers != nil }
        guard !objects.isEmpty else { return }
        if Self.isIDMap(place, objects) || namesCollectionKeys(objects) {
            var scalars: [(from: String, to: String, path: [String])] = []
            var children: [Item] = []
            for item in objects {
                for (key, value) in item.value.objectMembers! {
                    let child = Item(path: item.path + [key], keys: item.keys + [key], value: value)
                    switch value {
                    case .object: children.append(child)
                    case .bool(true), .number, .string:
                        if let from = item.keys.last { scalars.append((from, key, child.path)) }
                    default: break
                    }
                }
            }
            if !scalars.isEmpty, scalars.count >= children.count {
                edges.append(EdgeSet(place: place + [nil], storage: .keys, pairs: scalars, rows: []))
            }
            if !children.isEmpty { visit(place + [nil], children, depth: depth + 1) }
            return
        }
        if place.last == .some(nil) {
            records.append(
                RecordSet(
                    place: place, items: objects, keys: Set(objects.map { $0.keys.last! }),
                    fields: Self.fieldPaths(objects)))
            if captures >= 2 {
                let pairs = objects.map { (from: $0.keys[$0.keys.count - 2], to: $0.keys.last!, path: $0.path) }
                edges.append(EdgeSet(place: place, storage: .rows, pairs: pairs, rows: objects.map(\.value)))
                edges += fieldEdges(place, objects)
            }
        }
        var order: [String] = []
        var byKey: [String: [Item]] = [:]
        for item in objects {
            for (key, value) in item.value.objectMembers! {
                if byKey[key] == nil { order.append(key) }
                byKey[key, default: []].append(Item(path: item.path + [key], keys: item.keys, value: value))
            }
        }
        for key in order { visit(place + [key], byKey[key]!, depth: depth + 1) }
    }

    /// Whether the keys of `objects` (all at `place`) are IDs rather than field names.
    static func isIDMap(_ place: Place, _ objects: [Item]) -> Bool {
        // A top-level value is a collection of records or edges, never one record (a global counter's object is
        // read as a map whose scalars capture nothing).
        if place.count == 1 { return true }
        var counts: [String: Int] = [:]
        var occurrences = 0
        var idLike = 0
        for item in objects {
            for (key, _) in item.value.objectMembers! {
                counts[key, default: 0] += 1
                occurrences += 1
                if looksLikeID(key) { idLike += 1 }
            }
        }
        guard occurrences > 0 else { return false }
        if idLike * 5 >= occurrences * 4 { return true }
        guard objects.count >= 3 else { return false }
        let shared = counts.values.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(occurrences)
        return shared / Double(objects.count) < 0.35
    }

    /// Rows keyed by IDs of their own (no collection's keys) whose field names another collection's records: an
    /// edge from the key above the row to that record, one set per such field.
    func fieldEdges(_ place: Place, _ objects: [Item]) -> [EdgeSet] {
        let rowKeys = objects.prefix(2_000).map { $0.keys.last! }
        guard !collectionKeys.contains(where: { keys in rowKeys.filter(keys.contains).count * 2 >= rowKeys.count })
        else { return [] }
        var found: [EdgeSet] = []
        for field in Self.fieldPaths(objects) where !field.contains("/") {
            let values = objects.prefix(2_000).compactMap { $0.value[field]?.stringValue }
            guard values.count * 5 >= min(objects.count, 2_000) * 4,
                collectionKeys.contains(where: { keys in values.filter(keys.contains).count * 5 >= values.count * 4 })
            else { continue }
            let pairs = objects.compactMap { item in
                item.value[field]?.stringValue.map { (from: item.keys[item.keys.count - 2], to: $0, path: item.path) }
            }
            found.append(EdgeSet(place: place, storage: .field(field), pairs: pairs, rows: objects.map(\.value)))
        }
        return found
    }

    /// Whether at least four fifths of the keys of `objects` (two or more distinct ones) are keys of one top-level
    /// collection.
    func namesCollectionKeys(_ objects: [Item]) -> Bool {
        var keys: [String] = []
        for item in objects { keys += item.value.objectMembers!.map(\.key) }
        guard Set(keys).count >= 2 else { return false }
        return collectionKeys.contains { collection in keys.filter(collection.contains).count * 5 >= keys.count * 4 }
    }

    /// Push IDs, numbers, Firebase and Firestore IDs, UUIDs: keys that field names almost never are.
    static func looksLikeID(_ key: String) -> Bool {
        let bytes = Array(key.utf8)
        guard !bytes.isEmpty else { return false }
        if bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { return true }
        if bytes[0] == UInt8(ascii: "-"), bytes.count >= 8 { return true }
        guard !bytes.contains(UInt8(ascii: " ")) else { return false }
        let digits = bytes.filter { $0 >= 0x30 && $0 <= 0x39 }.count
        // Firestore's automatic IDs are 20 letters and digits, which may happen to hold no digit.
        let alphanumeric = bytes.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) }
        return (bytes.count >= 12 && digits >= 1) || (bytes.count == 20 && alphanumeric)
    }

    /// The field paths of `objects` that hold scalars, up to three keys deep, in first-seen order.
    static func fieldPaths(_ objects: [Item]) -> [String] {
        var seen: Set<String> = []
        var order: [String] = []
        func walk(_ value: JSONValue, _ prefix: String, _ depth: Int) {
            for (key, child) in value.objectMembers ?? [] {
                let path = prefix.isEmpty ? key : prefix + "/" + key
                switch child {
                case .object:
                    // A map of IDs or of documents (a subcollection) holds no field of the record.
                    let members = child.objectMembers ?? []
                    let documents = !members.isEmpty && members.allSatisfy { $0.value.objectMembers != nil }
                    if depth < 3, !documents, !members.contains(where: { looksLikeID($0.key) }) {
                        walk(child, path, depth + 1)
                    }
                case .array: break
                default: if seen.insert(path).inserted { order.append(path) }
                }
            }
        }
        for item in objects.prefix(2_000) { walk(item.value, "", 1) }
        return order
    }
}

extension JSONValue {
    /// The value at a field path (`poster/username`), or nil.
    package func at(_ field: String) -> JSONValue? {
        var value: JSONValue? = self
        for key in field.split(separator: "/", omittingEmptySubsequences: false) { value = value?[String(key)] }
        return value
    }
}
