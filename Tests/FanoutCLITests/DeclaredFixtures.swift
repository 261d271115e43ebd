import Foundation
import Testing

/// Exports of the apps docs/layouts.md "Declaring your app's copies" describes, consistent as written, and the drift
/// each kind of declaration finds: one edit each, with the findings it must give (rule and first path). The
/// exports and schema files are in `Tests/Fixtures/declared/`; FriendlyPix's is the real console export.
enum DeclaredFixtures {
    /// The drift that deletes a field rows copy: its copies are then the only place the value is left.
    static let missingOriginal = "a record without the field rows copy"

    /// One injected drift: what it does to the export, and the (rule, first path) of every finding it causes.
    struct Drift: Sendable {
        let name: String
        let edit: @Sendable (inout JSONTree) -> Void
        let findings: [[String]]
        /// Whether its findings have no fix: a choice between two sides, or a value only one side holds.
        var leavesAChoice = false

        /// Whether its findings have no fix.
        var isUnfixable: Bool { leavesAChoice || name == missingOriginal }
    }

    /// A layout: its export (consistent unless noted), its schema file, and its drifts.
    struct Layout: Sendable {
        let name: String
        let export: @Sendable () throws -> String
        let schema: String
        let drifts: [Drift]
        /// The declarations whose findings have no fix: references the schema does not mark deletable.
        var unfixable: [String] = []
    }

    static let folder = CLI.repository.appendingPathComponent("Tests/Fixtures/declared")

    static func fixture(_ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    /// Chirp (Twitter-like): counters on users and in a followers object, follow rows keyed by push IDs, timeline
    /// rows keyed by push IDs that copy the tweet and its author.
    static let chirp = Layout(
        name: "chirp", export: { try fixture("chirp.json") }, schema: "chirp.toml",
        drifts: [
            Drift(
                name: "a stale tweet counter", edit: { $0["users/uAda/tweetCount"] = 5 },
                findings: [["tweet-count", "users/uAda/tweetCount"]]),
            Drift(
                name: "a stale follower counter", edit: { $0["followers/uBob/count"] = 1 },
                findings: [["follower-count", "followers/uBob/count"]]),
            Drift(
                name: "a timeline row's stale text",
                edit: { tree in
                    let row = tree.keys("timeline/uDee")[0]
                    tree["timeline/uDee/\(row)/text"] = "an old draft"
                }, findings: [["timeline-text", "timeline/uDee/-Nr0024bbbbbbbbbbbbb/text"]]),
            Drift(
                name: "a timeline row without its time",
                edit: { tree in
                    tree["timeline/uBob/-Nr0017bbbbbbbbbbbbb/created"] = nil
                }, findings: [["timeline-created", "timeline/uBob/-Nr0017bbbbbbbbbbbbb/created"]]),
            Drift(
                name: "a stale copy of an author's email",
                edit: { $0["timeline/uAda/-Nr0011bbbbbbbbbbbbb/user/email"] = "old@example.com" },
                findings: [["timeline-author-email", "timeline/uAda/-Nr0011bbbbbbbbbbbbb/user/email"]]),
            Drift(
                name: missingOriginal, edit: { $0["users/uCyd/email"] = nil },
                findings: [
                    ["timeline-author-email", "timeline/uCyd/-Nr0021bbbbbbbbbbbbb/user/email"],
                    ["timeline-author-email", "timeline/uDee/-Nr0024bbbbbbbbbbbbb/user/email"],
                ]),
            Drift(
                name: "a renamed user whose follower row keeps the old name",
                edit: { $0["followers/uBob/list/-Nr0002bbbbbbbbbbbbb/name"] = "Ada L." },
                findings: [["follower-name", "followers/uBob/list/-Nr0002bbbbbbbbbbbbb/name"]]),
            Drift(
                name: "a following row's stale username",
                edit: { $0["following/uDee/-Nr0009bbbbbbbbbbbbb/username"] = "cyd_old" },
                findings: [["following-username", "following/uDee/-Nr0009bbbbbbbbbbbbb/username"]]),
            Drift(
                name: "a fan-out that never wrote a row", edit: { $0["timeline/uCyd/-Nr0019bbbbbbbbbbbbb"] = nil },
                findings: [["timeline-missing", "timeline/uCyd/-NjEtLV-t0001aaaaaaa"]]),
            Drift(
                name: "a row of someone the reader does not follow",
                edit: { tree in
                    var row = tree["timeline/uBob/-Nr0016bbbbbbbbbbbbb"] as! [String: Any]
                    row["tweetKey"] = "-NjEu6K-t0003aaaaaaa"
                    row["userKey"] = "uCyd"
                    row["text"] = "Cyd's first"
                    row["created"] = 1_700_000_200_000
                    row["user"] = ["key": "uCyd", "name": "Cyd Park", "username": "cyd", "email": "cyd@example.com"]
                    tree["timeline/uBob/-Nr0099bbbbbbbbbbbbb"] = row
                }, findings: [["timeline-stale", "timeline/uBob/-Nr0099bbbbbbbbbbbbb"]]),
            Drift(
                name: "a follow without its follower row",
                edit: { $0["followers/uCyd/list/-Nr0010bbbbbbbbbbbbb"] = nil },
                findings: [["follow-mirror-missing", "followers/uCyd/list/uDee"]]),
        ])

    /// Agora (a forum): counters of the whole forum, each user's set of post ids (values are the ids), reactions.
    static let agora = Layout(
        name: "agora", export: { try fixture("agora.json") }, schema: "agora.toml",
        drifts: [
            Drift(
                name: "a stale post counter", edit: { $0["stats/postsCount"] = 5 },
                findings: [["posts-count", "stats/postsCount"]]),
            Drift(
                name: "a stale user counter", edit: { $0["stats/usersCount"] = 2 },
                findings: [["users-count", "stats/usersCount"]]),
            Drift(
                name: "a reaction counted twice", edit: { $0["stats/reactionsCount"] = 4 },
                findings: [["reactions-count", "stats/reactionsCount"]]),
            Drift(
                name: "a post missing from its author's set",
                edit: { $0["users/ben/posts/-N_vsHJVf02aaaaaaaaa"] = nil },
                findings: [["user-post-ids", "users/ben/posts/-N_vsHJVf02aaaaaaaaa"]]),
            Drift(
                name: "a post in someone else's set",
                edit: { $0["users/cat/posts/-N_vqNF-f01aaaaaaaaa"] = "-N_vqNF-f01aaaaaaaaa" },
                findings: [["user-post-ids", "users/cat/posts/-N_vqNF-f01aaaaaaaaa"]]),
            // A list's missing element goes after the elements it has, not under a key named {i}.
            Drift(
                name: "a list of post ids that lost its last one",
                edit: { $0["users/ann/recent"] = ["-N_vqNF-f01aaaaaaaaa"] },
                findings: [["user-recent", "users/ann/recent/1"]]),
            Drift(
                name: "a list that was never written", edit: { $0["users/ben/recent"] = nil },
                findings: [["user-recent", "users/ben/recent/0"]]),
        ])

    /// Pinwall (boards of pins): boards as records, counted per a field of the pins, copied into pins and
    /// referenced by a field; board owners referenced as users.
    static let pinwall = Layout(
        name: "pinwall", export: { try fixture("pinwall.json") }, schema: "pinwall.toml",
        drifts: [
            Drift(
                name: "a pin on a deleted board", edit: { $0["pins/-NRbnmPVp02aaaaaaaaa/boardid"] = "b-gone" },
                findings: [
                    ["pin-board", "pins/-NRbnmPVp02aaaaaaaaa/boardid"], ["board-pin-count", "boards/b-food/pinCount"],
                ]),
            Drift(
                name: "a stale pin counter of a board", edit: { $0["boards/b-garden/pinCount"] = 4 },
                findings: [["board-pin-count", "boards/b-garden/pinCount"]]),
            Drift(
                name: "a pin keeping its board's old name",
                edit: { $0["pins/-NRbo9p-p03aaaaaaaaa/boardName"] = "Baking" },
                findings: [["pin-board-name", "pins/-NRbo9p-p03aaaaaaaaa/boardName"]]),
            Drift(
                name: "a board of a deleted user", edit: { $0["boards/b-garden/owner"] = "zed" },
                findings: [["board-owner", "boards/b-garden/owner"]]),
        ], unfixable: ["board-owner"])

    /// FriendlyPix's real export with comment counters and a comment mirror written into it: the comments relation
    /// of the `friendlypix` preset, counted and mirrored by declarations.
    static let friendlyPixComments = Layout(
        name: "friendlypix-comments",
        export: {
            var tree = try JSONTree(contentsOf: LayoutTests.friendlyPix)
            for post in tree.keys("comments") {
                let comments = tree.keys("comments/\(post)")
                tree["posts/\(post)/commentCount"] = comments.count
                for id in comments { tree["post-comments/\(post)/\(id)"] = true }
            }
            return tree.text
        }, schema: "friendlypix-comments.toml",
        drifts: [
            Drift(
                name: "a stale comment counter", edit: { $0["posts/-K9euzjFOpEFYT5lUZrh/commentCount"] = 9 },
                findings: [["comment-count", "posts/-K9euzjFOpEFYT5lUZrh/commentCount"]]),
            Drift(
                name: "a comment by a deleted user",
                edit: { $0["comments/-K9euzjFOpEFYT5lUZrh/-K9hcqlMcxoK2e2MDk94/author"] = "ghost" },
                // The comment is not counted any more; its mirror entry is still the comment's (the repair deletes both).
                findings: [
                    ["comment-unknown-user", "comments/-K9euzjFOpEFYT5lUZrh/-K9hcqlMcxoK2e2MDk94"],
                    ["comment-count", "posts/-K9euzjFOpEFYT5lUZrh/commentCount"],
                ]),
            Drift(
                name: "a comment mirrored nowhere",
                edit: { $0["post-comments/-K9euzjFOpEFYT5lUZrh/-KBJl3rtb2bEQ_7uBju4"] = nil },
                findings: [["comment-mirror", "post-comments/-K9euzjFOpEFYT5lUZrh/-KBJl3rtb2bEQ_7uBju4"]]),
            Drift(
                name: "a comment on a deleted post",
                edit: { tree in
                    tree["comments/-KnoSuchPost0000000/-Kc1"] = [
                        "author": "05781774870892877580", "text": "hi", "timestamp": 1_454_612_114_624,
                    ]
                }, findings: [["comment-unknown-post", "comments/-KnoSuchPost0000000/-Kc1"]]),
        ])

    /// A forum (categories of forums of threads of posts): records of three collections of its own, counted per
    /// capture, per field and over the export, a forum's list of its threads, titles copied down, references up.
    static let forum = Layout(
        name: "forum", export: { try fixture("forum.json") }, schema: "forum.toml",
        drifts: [
            Drift(
                name: "a stale forum counter", edit: { $0["categories/c-general/forumCount"] = 3 },
                findings: [["forum-count", "categories/c-general/forumCount"]]),
            Drift(
                name: "a stale thread counter", edit: { $0["forums/f-intro/threadCount"] = 1 },
                findings: [["thread-count", "forums/f-intro/threadCount"]]),
            Drift(
                name: "a stale post counter of a thread", edit: { $0["threads/t-hello/postCount"] = 5 },
                findings: [["thread-post-count", "threads/t-hello/postCount"]]),
            Drift(
                name: "a stale thread counter of a user", edit: { $0["users/cat/threadCount"] = 0 },
                findings: [["user-thread-count", "users/cat/threadCount"]]),
            Drift(
                name: "a stale thread counter of the forum", edit: { $0["stats/threadCount"] = 7 },
                findings: [["threads-total", "stats/threadCount"]]),
            Drift(
                name: "a thread missing from its forum's list", edit: { $0["forums/f-intro/threads/t-newhere"] = nil },
                findings: [["forum-threads", "forums/f-intro/threads/t-newhere"]]),
            Drift(
                name: "a thread in another forum's list", edit: { $0["forums/f-help/threads/t-hello"] = true },
                findings: [["forum-threads", "forums/f-help/threads/t-hello"]]),
            Drift(
                name: "a stale copy of a forum's title", edit: { $0["threads/t-markdown/forumTitle"] = "Old help" },
                findings: [["thread-forum-title", "threads/t-markdown/forumTitle"]]),
            Drift(
                name: "a stale copy of a thread's title",
                edit: { $0["posts/-NjF1VR-p05aaaaaaaaa/threadTitle"] = "How do I write bold?" },
                findings: [["post-thread-title", "posts/-NjF1VR-p05aaaaaaaaa/threadTitle"]]),
            Drift(
                // Its old forum still counts and lists it; no entry is added under the forum that does not exist.
                name: "a thread moved to a deleted forum", edit: { $0["threads/t-rules/forum"] = "f-gone" },
                findings: [
                    ["thread-count", "forums/f-site/threadCount"], ["forum-threads", "forums/f-site/threads/t-rules"],
                    ["thread-forum", "threads/t-rules/forum"],
                ]),
            Drift(
                name: "a post on a deleted thread", edit: { $0["posts/-NjEvcz-p02aaaaaaaaa/thread"] = "t-gone" },
                findings: [
                    ["thread-post-count", "threads/t-hello/postCount"],
                    ["post-thread", "posts/-NjEvcz-p02aaaaaaaaa/thread"],
                ]),
            Drift(
                name: "a forum in a deleted category", edit: { $0["forums/f-help/category"] = "c-gone" },
                findings: [
                    ["forum-count", "categories/c-general/forumCount"], ["forum-category", "forums/f-help/category"],
                ]),
            Drift(
                name: missingOriginal, edit: { $0["forums/f-intro/title"] = nil },
                findings: [
                    ["thread-forum-title", "threads/t-hello/forumTitle"],
                    ["thread-forum-title", "threads/t-newhere/forumTitle"],
                ]),
        ], unfixable: ["thread-forum", "post-thread", "forum-category"])

    /// Murmur (a chat app): users copy the display name of the profile each edits, which is the truth.
    static let murmur = Layout(
        name: "murmur", export: { try fixture("profiles.json") }, schema: "profiles.toml",
        drifts: [
            Drift(
                name: "a user that missed a profile's new name", edit: { $0["users/uAda/displayName"] = "Ada" },
                findings: [["profile-display-name", "users/uAda/displayName"]]),
            Drift(
                name: "a user without the name its profile holds", edit: { $0["users/uBob/displayName"] = nil },
                findings: [["profile-display-name", "users/uBob/displayName"]]),
            Drift(
                name: "two profiles of one user that disagree",
                edit: { $0["profiles/p-cyd2"] = ["uid": "uCyd", "displayName": "Cyd C.", "bio": "a second profile"] },
                findings: [["profile-display-name", "users/uCyd/displayName"]], leavesAChoice: true),
            Drift(
                name: "a profile without its name", edit: { $0["profiles/p-dee/displayName"] = nil },
                findings: [["profile-display-name", "users/uDee/displayName"]], leavesAChoice: true),
        ])

    static let all = [chirp, agora, pinwall, friendlyPixComments, forum, murmur]

    /// The schema file of `layout` as a path: the fixture, or for FriendlyPix the preset with the declarations.
    static func schema(_ layout: Layout, in cli: CLI) throws -> String {
        guard layout.name == "friendlypix-comments" else { return folder.appendingPathComponent(layout.schema).path }
        let preset = try cli.run("schemas", "show", "friendlypix").stdout
        try cli.write(
            preset + """

                [[counters]]
                name = "comment-count"
                at = "posts/{post}/commentCount"
                counts = "comments"
                per = "post"

                [[mirrors]]
                name = "comment-mirror"
                of = "comments"
                at = "post-comments/{post}/{id}"

                """, to: layout.schema)
        return cli.url(layout.schema).path
    }

    /// The export of `layout` with every drift applied.
    static func drifted(_ layout: Layout) throws -> String {
        var tree = try JSONTree(layout.export())
        for drift in layout.drifts { drift.edit(&tree) }
        return tree.text
    }
}
