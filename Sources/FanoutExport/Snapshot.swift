import FanoutCore
import FanoutJSON

/// The canonical snapshot of an export's derived data (`snapshot.json`).
///
/// Format version 1, keys sorted by their UTF-8 bytes, two-space indentation, byte-identical across runs:
/// ```
/// {"posts": {"<post key>": {"like_count": n, "liker_uids": […], "likers": ["<username>", …],
///                           "owner": "<uid>", "time": seconds or null}},
///  "timelines": {"<uid>": ["<post key>", … newest first]},
///  "users": {"<uid>": {"followers": n, "following": n, "posts": n, "username": "…" or null}},
///  "version": 1}
/// ```
/// Likers are ordered by username, then uid. Only existing users have timelines and user entries.
public enum Snapshot {
    /// The snapshot format's version.
    public static let version = 1

    /// Streams the snapshot into `out` without building a tree, so that large exports stay cheap.
    public static func write(_ dataset: Dataset, _ derived: DerivedData, into out: inout String) {
        let keys = dataset.keys
        let quote = JSONWriter.quoted

        // Posts, by key bytes.
        let postOrder = dataset.posts.indices.filter { derived.post(dataset.posts[$0].key) == $0 }
            .sorted { keys.precedes(dataset.posts[$0].key, dataset.posts[$1].key) }
        out += "{\n  \"posts\": {"
        for (n, p) in postOrder.enumerated() {
            let post = dataset.posts[p]
            let likers = derived.likers[p].map { Int($0) }
            out += n == 0 ? "\n" : ",\n"
            out += "    \(quote(dataset.key(post.key))): {\n"
            out += "      \"like_count\": \(likers.count),\n"
            out +=
                "      \"liker_uids\": \(list(likers.map { quote(dataset.key(dataset.users[$0].key)) }, indent: 6)),\n"
            out += "      \"likers\": \(list(likers.map { name(dataset, $0) }, indent: 6)),\n"
            out += "      \"owner\": \(post.owner == noKey ? "null" : quote(dataset.key(post.owner))),\n"
            out += "      \"time\": \(derived.postTimes[p].map(number) ?? "null")\n    }"
        }
        out += postOrder.isEmpty ? "},\n" : "\n  },\n"

        let userOrder = dataset.users.indices.filter { derived.user(dataset.users[$0].key) == $0 }
            .sorted { keys.precedes(dataset.users[$0].key, dataset.users[$1].key) }
        out += "  \"timelines\": {"
        for (n, u) in userOrder.enumerated() {
            out += n == 0 ? "\n" : ",\n"
            let posts = derived.timelines[u].map { quote(dataset.key(dataset.posts[Int($0)].key)) }
            out += "    \(quote(dataset.key(dataset.users[u].key))): \(list(posts, indent: 4))"
        }
        out += userOrder.isEmpty ? "},\n" : "\n  },\n"

        out += "  \"users\": {"
        for (n, u) in userOrder.enumerated() {
            let user = dataset.users[u]
            out += n == 0 ? "\n" : ",\n"
            out += "    \(quote(dataset.key(user.key))): {\n"
            out += "      \"followers\": \(derived.followers[u].count),\n"
            out += "      \"following\": \(derived.followedKeys[u].filter { $0 != user.key }.count),\n"
            out += "      \"posts\": \(derived.ownPosts[u].count),\n"
            out += "      \"username\": \(user.username.map(quote) ?? "null")\n    }"
        }
        out += userOrder.isEmpty ? "},\n" : "\n  },\n"
        out += "  \"version\": \(version)\n}\n"
    }

    /// The snapshot as a string.
    public static func render(_ dataset: Dataset, _ derived: DerivedData) -> String {
        var out = ""
        write(dataset, derived, into: &out)
        return out
    }

    private static func name(_ dataset: Dataset, _ user: Int) -> String {
        JSONWriter.quoted(dataset.users[user].username ?? dataset.key(dataset.users[user].key))
    }

    private static func list(_ items: [String], indent: Int) -> String {
        guard !items.isEmpty else { return "[]" }
        let pad = String(repeating: " ", count: indent + 2)
        return "[\n" + items.map { pad + $0 }.joined(separator: ",\n") + "\n" + String(repeating: " ", count: indent)
            + "]"
    }

    private static func number(_ value: Double) -> String {
        if let exact = Int64(exactly: value) { return String(exact) }
        return value.isFinite ? "\(value)" : "null"
    }
}
