import Foundation
import Testing

/// Pairs of exports a day apart with known edits, for `fanout diff`'s tests and the SQL differential tests
/// (docs/diff-and-history.md): the edits are made here, with Foundation, and counted here, independently of Fanout.
enum DiffPairs {
    /// What ``generated(_:folder:)`` did, by key.
    struct Generated {
        let leaving: String, newcomer: String, friend: String, newPost: String
        let likedPost: String, unliker: String, otherPost: String, liker: String
        let follower: String, followed: String
        /// The post whose counter was made two too high, and the one whose poster name copy went stale (their paths).
        let drifted: String, stale: String
    }

    /// The facts of a Makestagram export by relation (as `fanout diff` names them), each path with the text of
    /// what the diff compares there: read with Foundation's JSON parser, not with Fanout.
    static func facts(_ tree: JSONTree) -> [String: [String: String]] {
        func text(_ value: Any?) -> String {
            guard let value else { return "null" }
            return String(
                decoding: try! JSONSerialization.data(
                    withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]), as: UTF8.self)
        }
        var facts: [String: [String: String]] = [
            "users": [:], "posts": [:], "likes": [:], "following": [:], "followers": [:], "timeline": [:],
        ]
        for user in tree.keys("users") { facts["users"]!["users/\(user)"] = text(tree["users/\(user)/username"]) }
        for owner in tree.keys("posts") {
            for post in tree.keys("posts/\(owner)") {
                let path = "posts/\(owner)/\(post)"
                facts["posts"]!["posts/\(owner)/\(post)"] = [
                    "created_at", "like_count", "poster/uid", "poster/username",
                ].map { text(tree["\(path)/\($0)"]) }.joined(separator: " ")
            }
        }
        for (relation, root) in [("likes", "postLikes"), ("following", "following"), ("followers", "followers")] {
            for a in tree.keys(root) {
                for b in tree.keys("\(root)/\(a)") { facts[relation]!["\(root)/\(a)/\(b)"] = "" }
            }
        }
        for user in tree.keys("timeline") {
            for post in tree.keys("timeline/\(user)") {
                facts["timeline"]!["timeline/\(user)/\(post)"] = text(tree["timeline/\(user)/\(post)/poster_uid"])
            }
        }
        return facts
    }

    /// The owner of the post `post` in a Makestagram tree.
    static func owner(ofPost post: String, in tree: JSONTree) -> String? {
        tree.keys("posts").first { tree["posts/\($0)/\(post)"] != nil }
    }

    /// Deletes user `uid` and everything that names them, keeping the export consistent: their posts with their
    /// likes and timeline entries, their likes (each post's counter one less), their follows both ways.
    static func removeUser(_ uid: String, from tree: inout JSONTree) {
        for post in tree.keys("posts/\(uid)") {
            tree["postLikes/\(post)"] = nil
            for reader in tree.keys("timeline") { tree["timeline/\(reader)/\(post)"] = nil }
        }
        tree["posts/\(uid)"] = nil
        for post in tree.keys("postLikes") where tree["postLikes/\(post)/\(uid)"] != nil {
            tree["postLikes/\(post)/\(uid)"] = nil
            if let owner = Self.owner(ofPost: post, in: tree) {
                tree["posts/\(owner)/\(post)/like_count"] = (tree["posts/\(owner)/\(post)/like_count"] as! Int) - 1
            }
        }
        for target in tree.keys("following/\(uid)") { tree["followers/\(target)/\(uid)"] = nil }
        for follower in tree.keys("followers/\(uid)") { tree["following/\(follower)/\(uid)"] = nil }
        tree["following/\(uid)"] = nil
        tree["followers/\(uid)"] = nil
        tree["timeline/\(uid)"] = nil
        tree["users/\(uid)"] = nil
    }

    /// Two nightly backups of a generated app, `old.json` and `new.json` in `folder` of `cli` (its root when nil),
    /// both written by Foundation so that their numbers read back the same: the second is the first repaired (its
    /// own repair patch, applied with Foundation), then a user who posted leaves with all they wrote and all that
    /// named them, a newcomer posts, follows and is liked, one like is taken back and another given (counters
    /// kept right), one follow ends (the follower's timeline loses the posts), and new drift is written: a counter
    /// two too high and a stale poster name. `defects.jsonl` lists the generator's defects in the first.
    static func generated(_ cli: CLI, folder: String? = nil) throws -> Generated {
        let at = { (name: String) in folder.map { "\($0)/\(name)" } ?? name }
        #expect(
            try cli.run(
                "generate", "--users", "60", "--seed", "11", "--defects", "20", "--out", at("base.json"),
                "--manifest", at("defects.jsonl")
            ).code == 0)
        // Both backups written by Foundation, so that their numbers read back the same.
        var tree = try JSONTree(cli.read(at("base.json")))
        try cli.write(tree.text, to: at("old.json"))
        #expect(try cli.run("export", at("old.json"), "--out", at("fixed"), "--repair").code == 0)
        try tree.apply(patch: cli.read(at("fixed/repair.patch.json")))

        let users = tree.keys("users")
        // A user who posted leaves, with all they wrote and all that named them.
        let leaving = try #require(
            users.first { tree.keys("posts/\($0)").count >= 2 && !tree.keys("following/\($0)").isEmpty })
        removeUser(leaving, from: &tree)
        let stay = tree.keys("users")
        // A newcomer posts once, follows someone and is liked by them.
        let (newcomer, friend) = ("uNewcomer0000000000000000000", stay[0])
        // 21 characters: no push ID, whose time would have to agree with created_at (push-id-time).
        let newPost = "-KzzNewcomerPost00001"
        tree["users/\(newcomer)"] = ["username": "newcomer"]
        tree["posts/\(newcomer)/\(newPost)"] =
            [
                "caption": "hello", "created_at": 1_700_000_000, "image_height": 300,
                "image_url": "https://example.com/new.jpg",
                "like_count": 1, "poster": ["uid": newcomer, "username": "newcomer"],
            ] as [String: Any]
        tree["postLikes/\(newPost)/\(friend)"] = true
        tree["following/\(newcomer)/\(friend)"] = true
        tree["followers/\(friend)/\(newcomer)"] = true
        tree["timeline/\(newcomer)/\(newPost)"] = ["poster_uid": newcomer]
        for post in tree.keys("posts/\(friend)") { tree["timeline/\(newcomer)/\(post)"] = ["poster_uid": friend] }
        // One unlike and one new like, each with its counter.
        let likedPost = try #require(
            tree.keys("postLikes").first { $0 != newPost && !tree.keys("postLikes/\($0)").isEmpty })
        let unliker = tree.keys("postLikes/\(likedPost)")[0]
        let likedOwner = try #require(Self.owner(ofPost: likedPost, in: tree))
        tree["postLikes/\(likedPost)/\(unliker)"] = nil
        tree["posts/\(likedOwner)/\(likedPost)/like_count"] =
            (tree["posts/\(likedOwner)/\(likedPost)/like_count"] as! Int) - 1
        let (otherOwner, otherPost) = try #require(
            stay.lazy.compactMap { owner in
                tree.keys("posts/\(owner)").first { $0 != likedPost && tree["postLikes/\($0)/\(stay[1])"] == nil }.map {
                    (owner, $0)
                }
            }.first)
        tree["postLikes/\(otherPost)/\(stay[1])"] = true
        tree["posts/\(otherOwner)/\(otherPost)/like_count"] =
            (tree["posts/\(otherOwner)/\(otherPost)/like_count"] as? Int ?? 0) + 1
        // An unfollow: the follower's timeline loses the followed user's posts.
        let (follower, followed) = try #require(
            stay.lazy.compactMap { a in
                tree.keys("following/\(a)").first { $0 != a && $0 != newcomer && !tree.keys("posts/\($0)").isEmpty }.map
                { (a, $0) }
            }.first)
        tree["following/\(follower)/\(followed)"] = nil
        tree["followers/\(followed)/\(follower)"] = nil
        for post in tree.keys("posts/\(followed)") where follower != followed {
            tree["timeline/\(follower)/\(post)"] = nil
        }
        // New drift: a counter two too high and a stale poster name.
        let (driftOwner, driftPost) = try #require(
            stay.lazy.compactMap { owner in
                tree.keys("posts/\(owner)").first { ![likedPost, otherPost].contains($0) }.map { (owner, $0) }
            }.first)
        tree["posts/\(driftOwner)/\(driftPost)/like_count"] =
            (tree["posts/\(driftOwner)/\(driftPost)/like_count"] as! Int) + 2
        let (staleOwner, stalePost) = try #require(
            stay.lazy.filter { $0 != driftOwner }.compactMap { owner in
                tree.keys("posts/\(owner)").first.map { (owner, $0) }
            }.first)
        tree["posts/\(staleOwner)/\(stalePost)/poster/username"] = "renamed_since"
        try cli.write(tree.text, to: at("new.json"))

        return Generated(
            leaving: leaving, newcomer: newcomer, friend: friend, newPost: newPost, likedPost: likedPost,
            unliker: unliker,
            otherPost: otherPost, liker: stay[1], follower: follower, followed: followed,
            drifted: "posts/\(driftOwner)/\(driftPost)", stale: "posts/\(staleOwner)/\(stalePost)")
    }
}
