import Foundation

/// A minimal, consistent export as a JSON tree, changed path by path to break one rule at a time.
struct MiniExport {
    var tree: [String: Any]

    static let pa = "-Kfm1DtVx0kQ9zPq2Lm7"  // a push ID of 2017-03-21, created_at 1490119356
    static let pb = "-KfmfQdQx1kQ9zPq2Lm7"  // a push ID of 2017-03-21, created_at 1490130156

    /// Makestagram: alice and bob follow each other, each has a post, bob likes alice's post.
    static var makestagram: MiniExport {
        func post(_ owner: String, _ time: Int, likes: Int) -> [String: Any] {
            [
                "created_at": time, "image_url": "https://example.com/\(owner).jpg", "image_height": 300,
                "like_count": likes,
                "poster": ["uid": owner, "username": owner], "caption": "by \(owner)",
            ]
        }
        return MiniExport(tree: [
            "users": ["alice": ["username": "alice"], "bob": ["username": "bob"]],
            "posts": [
                "alice": [pa: post("alice", 1_490_119_356, likes: 1)],
                "bob": [pb: post("bob", 1_490_130_156, likes: 0)],
            ],
            "postLikes": [pa: ["bob": true]],
            "following": ["alice": ["bob": true], "bob": ["alice": true]],
            "followers": ["alice": ["bob": true], "bob": ["alice": true]],
            "timeline": [
                "alice": [pa: ["poster_uid": "alice"], pb: ["poster_uid": "bob"]],
                "bob": [pa: ["poster_uid": "alice"], pb: ["poster_uid": "bob"]],
            ],
        ])
    }

    /// The Instagram clone's layout (seed 002): the same world with a `user-likes` mirror and `1` for edges.
    static var instaclone: MiniExport {
        func post(_ owner: String, _ time: Int, likes: Int) -> [String: Any] {
            [
                "ownerUid": owner, "creationDate": time, "imageUrl": "https://example.com/\(owner).jpg", "likes": likes,
                "caption": "by \(owner)",
            ]
        }
        return MiniExport(tree: [
            "users": ["alice": ["username": "alice", "name": "Alice"], "bob": ["username": "bob", "name": "Bob"]],
            "posts": [pa: post("alice", 1_490_119_356, likes: 1), pb: post("bob", 1_490_130_156, likes: 0)],
            "user-posts": ["alice": [pa: 1], "bob": [pb: 1]],
            "post-likes": [pa: ["bob": 1]],
            "user-likes": ["bob": [pa: 1]],
            "user-following": ["alice": ["bob": 1], "bob": ["alice": 1]],
            "user-followers": ["alice": ["bob": 1], "bob": ["alice": 1]],
            "user-feed": ["alice": [pa: 1, pb: 1], "bob": [pa: 1, pb: 1]],
        ])
    }

    /// Sets the value at a slash-separated path, creating objects on the way; nil removes it.
    mutating func set(_ path: String, _ value: Any?) {
        tree = Self.set(path.split(separator: "/").map(String.init)[...], value, in: tree)
    }

    private static func set(_ keys: ArraySlice<String>, _ value: Any?, in node: [String: Any]) -> [String: Any] {
        var node = node
        if keys.count == 1 {
            node[keys.first!] = value
        } else {
            node[keys.first!] = set(keys.dropFirst(), value, in: node[keys.first!] as? [String: Any] ?? [:])
        }
        return node
    }

    /// The export's text. A string value `"<repeat>"` becomes the same member twice (`"k":true,"k":true`), which
    /// only hand-edited or concatenated JSON has.
    func text() throws -> String {
        let data = try JSONSerialization.data(withJSONObject: tree, options: [.sortedKeys, .prettyPrinted])
        return String(decoding: data, as: UTF8.self)
            .replacing(/"([^"]+)" : "<repeat>"/) { "\"\($0.output.1)\" : true, \"\($0.output.1)\" : true" }
    }
}
