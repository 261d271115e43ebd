import Foundation

/// An export as Foundation's JSON objects, edited by database path the way a Firebase client writes: what tests use
/// to inject drift and, independently of Fanout's own applier, to apply a repair patch (set a value at a path,
/// creating objects on the way; `null` deletes). An array is the object of its indexes, as the Realtime Database
/// keeps it: a path may go through it, and a write into it makes it that object.
struct JSONTree {
    var root: [String: Any]

    init(_ text: String) throws { root = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any] }

    init(contentsOf url: URL) throws { try self.init(String(contentsOf: url, encoding: .utf8)) }

    /// The value at `path` (`users/u1/name`).
    subscript(path: String) -> Any? {
        get {
            var node: Any? = root
            for key in path.split(separator: "/").map(String.init) { node = Self.object(node)?[key] }
            return node
        }
        set {
            root =
                Self.setting(path.split(separator: "/").map(String.init)[...], to: newValue, in: root) as? [String: Any]
                ?? [:]
        }
    }

    /// The keys of the object at `path`, sorted.
    func keys(_ path: String) -> [String] { ((self[path] as? [String: Any])?.keys).map { $0.sorted() } ?? [] }

    /// Applies a multi-path update (`repair.patch.json`): each path set to its value, `null` deleting.
    mutating func apply(patch text: String) throws {
        let patch = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
        for (path, value) in patch { self[path] = value is NSNull ? nil : value }
    }

    /// The tree as JSON text, keys sorted.
    var text: String {
        String(
            decoding: try! JSONSerialization.data(withJSONObject: root, options: [.sortedKeys, .prettyPrinted]),
            as: UTF8.self)
    }

    private static func setting(_ keys: ArraySlice<String>, to value: Any?, in node: Any?) -> Any? {
        guard let key = keys.first else { return value }
        var object = Self.object(node) ?? [:]
        object[key] = setting(keys.dropFirst(), to: value, in: object[key])
        return object
    }

    /// An object as it is, an array as the object of its indexes; nil for anything else.
    private static func object(_ node: Any?) -> [String: Any]? {
        if let array = node as? [Any] {
            return Dictionary(uniqueKeysWithValues: array.enumerated().map { (String($0.offset), $0.element) })
        }
        return node as? [String: Any]
    }
}
