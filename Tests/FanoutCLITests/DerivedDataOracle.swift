import Foundation

/// An independent computation of docs/derived-data.md from a Makestagram export, with JSONSerialization.
/// It shares no code with Fanout, so agreement between the two is evidence, not tautology.
struct DerivedDataOracle {
    var timelines: [String: [String]] = [:]
    var likeCounts: [String: Int] = [:]
    var likers: [String: [String]] = [:]

    init(exportAt url: URL) throws {
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        let users = root["users"] as? [String: [String: Any]] ?? [:]
        let posts = root["posts"] as? [String: [String: [String: Any]]] ?? [:]
        let postLikes = root["postLikes"] as? [String: [String: Any]] ?? [:]
        let following = root["following"] as? [String: [String: Any]] ?? [:]
        func username(_ uid: String) -> String { users[uid]?["username"] as? String ?? uid }
        func bytesLess(_ a: String, _ b: String) -> Bool { Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8)) }

        var owner: [String: String] = [:]
        var time: [String: Double] = [:]
        for (uid, byKey) in posts {
            for (key, post) in byKey {
                owner[key] = uid
                time[key] = (post["created_at"] as? NSNumber)?.doubleValue ?? 0
            }
        }
        for key in owner.keys {
            let existing = Set((postLikes[key] ?? [:]).keys.filter { users[$0] != nil })
            likeCounts[key] = existing.count
            likers[key] = existing.sorted { a, b in
                username(a) != username(b) ? bytesLess(username(a), username(b)) : bytesLess(a, b)
            }.map(username)
        }
        for uid in users.keys {
            let authors = Set([uid]).union((following[uid] ?? [:]).keys)
            let keys = owner.filter { authors.contains($0.value) }.map(\.key)
            timelines[uid] = keys.sorted { a, b in time[a]! != time[b]! ? time[a]! > time[b]! : bytesLess(a, b) }
        }
    }
}
