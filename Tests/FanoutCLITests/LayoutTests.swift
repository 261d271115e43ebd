import FanoutExport
import FanoutTestSupport
import Foundation
import Testing

/// One small social graph, written out in every layout Fanout reads, and computed independently.
///
/// The same logical data must give the same snapshot whatever the layout: these writers know nothing of
/// Fanout's schemas, they lay the data out as each app's code would (seeds 000/003, 002, 001/004, and the
/// example app of docs/layouts.md, "Schema files").
struct Feed {
    struct User { let uid: String, username: String }
    struct Post { let key: String, owner: String, seconds: Int, caption: String }

    var users: [User] = []
    var posts: [Post] = []
    /// (post, user); may name users or posts that do not exist, as real exports do.
    var likes: [(post: String, user: String)] = []
    /// (user, target); may name users that do not exist.
    var follows: [(user: String, target: String)] = []

    /// Firebase push IDs: 8 characters of milliseconds since 1970, then 12 of randomness (here: a counter).
    static func pushID(seconds: Int, _ n: Int) -> String {
        let alphabet = Array("-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz")
        var millis = seconds * 1000, head = ""
        for _ in 0..<8 {
            head = String(alphabet[millis % 64]) + head
            millis /= 64
        }
        var tail = "", rest = n * 7919 + 12345
        for _ in 0..<12 {
            tail += String(alphabet[rest % 64])
            rest = rest / 64 + n
        }
        return head + tail
    }

    static let sample: Feed = {
        var feed = Feed()
        feed.users = [("uAnn", "ann"), ("uBo", "bo"), ("uCy", "cy"), ("uDi", "di"), ("uEd", "ed")].map(User.init)
        let base = 1_490_119_356
        let owners = ["uAnn", "uBo", "uCy", "uDi", "uAnn", "uBo", "uCy", "uAnn", "uDi", "uEd"]
        for (n, owner) in owners.enumerated() {
            // Posts 3 and 4 share a second: ties are ordered by key.
            let seconds = base + (n == 4 ? 3 : n) * 3_600
            feed.posts.append(
                Post(key: pushID(seconds: seconds, n), owner: owner, seconds: seconds, caption: "post *\(n)*"))
        }
        let p = feed.posts.map(\.key)
        feed.likes = [
            (p[0], "uBo"), (p[0], "uCy"), (p[0], "uDi"), (p[1], "uAnn"), (p[2], "uAnn"), (p[2], "uBo"),
            (p[5], "uEd"), (p[7], "uCy"), (p[9], "uAnn"),
            (p[3], "uGhost"),  // a deleted user's like
            ("-KnoSuchPost000000000", "uAnn"),  // a like of a deleted post
        ]
        feed.follows = [
            ("uAnn", "uBo"), ("uAnn", "uCy"), ("uBo", "uAnn"), ("uCy", "uDi"), ("uDi", "uDi"), ("uEd", "uGhost"),
            ("uEd", "uAnn"),
        ]
        return feed
    }()

    func username(_ uid: String) -> String? { users.first { $0.uid == uid }?.username }
    func owner(_ post: String) -> String? { posts.first { $0.key == post }?.owner }
    func exists(_ uid: String) -> Bool { username(uid) != nil }

    /// The distinct existing users who like `post`.
    func likers(_ post: String) -> [String] {
        var seen: [String] = []
        for like in likes where like.post == post && exists(like.user) && !seen.contains(like.user) {
            seen.append(like.user)
        }
        return seen
    }

    /// docs/derived-data.md: own posts and followed users' posts, newest first, ties by key (byte order).
    func timeline(_ uid: String) -> [String] {
        let authors = Set([uid] + follows.filter { $0.user == uid }.map(\.target))
        return posts.filter { authors.contains($0.owner) }.sorted {
            $0.seconds != $1.seconds
                ? $0.seconds > $1.seconds : Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8))
        }.map(\.key)
    }

    /// A fully fanned-out stored timeline: every entry the derived timelines hold.
    var storedTimelines: [(user: String, post: String)] {
        users.flatMap { user in timeline(user.uid).map { (user.uid, $0) } }
    }

    static func json(_ object: Any) -> String {
        String(
            decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted]),
            as: UTF8.self)
    }

    /// Seeds 000 and 003: posts under their poster, `postLikes`, `following`/`followers`, `timeline`.
    var makestagram: String {
        var posts: [String: [String: Any]] = [:]
        for post in self.posts {
            posts[post.owner, default: [:]][post.key] = [
                "created_at": post.seconds, "image_url": "https://img.example/\(post.key).jpg", "image_height": 320,
                "like_count": likers(post.key).count, "caption": post.caption,
                "poster": ["uid": post.owner, "username": username(post.owner)!],
            ]
        }
        var postLikes: [String: [String: Any]] = [:]
        for like in likes { postLikes[like.post, default: [:]][like.user] = true }
        var following: [String: [String: Any]] = [:], followers: [String: [String: Any]] = [:]
        for follow in follows {
            following[follow.user, default: [:]][follow.target] = true
            followers[follow.target, default: [:]][follow.user] = true
        }
        var timeline: [String: [String: Any]] = [:]
        for entry in storedTimelines {
            timeline[entry.user, default: [:]][entry.post] = ["poster_uid": owner(entry.post)!]
        }
        return Self.json([
            "users": Dictionary(uniqueKeysWithValues: users.map { ($0.uid, ["username": $0.username]) }),
            "posts": posts, "postLikes": postLikes, "following": following, "followers": followers,
            "timeline": timeline,
        ])
    }

    /// Seed 002: flat posts with `ownerUid`, two like mirrors, `user-*` lists, values `1`.
    var instaclone: String {
        var userPosts: [String: [String: Any]] = [:], postLikes: [String: [String: Any]] = [:],
            userLikes: [String: [String: Any]] = [:]
        var following: [String: [String: Any]] = [:], followers: [String: [String: Any]] = [:],
            feed: [String: [String: Any]] = [:]
        for post in posts { userPosts[post.owner, default: [:]][post.key] = 1 }
        for like in likes {
            postLikes[like.post, default: [:]][like.user] = 1
            userLikes[like.user, default: [:]][like.post] = 1
        }
        for follow in follows {
            following[follow.user, default: [:]][follow.target] = 1
            followers[follow.target, default: [:]][follow.user] = 1
        }
        for entry in storedTimelines { feed[entry.user, default: [:]][entry.post] = 1 }
        return Self.json([
            "users": Dictionary(
                uniqueKeysWithValues: users.map {
                    (
                        $0.uid,
                        [
                            "username": $0.username, "name": $0.username.capitalized,
                            "profileImageUrl": "https://img.example/\($0.uid).png",
                        ]
                    )
                }),
            "posts": Dictionary(
                uniqueKeysWithValues: posts.map {
                    (
                        $0.key,
                        [
                            "ownerUid": $0.owner, "caption": $0.caption,
                            "imageUrl": "https://img.example/\($0.key).jpg",
                            "likes": likers($0.key).count, "creationDate": $0.seconds,
                        ] as [String: Any]
                    )
                }),
            "user-posts": userPosts, "post-likes": postLikes, "user-likes": userLikes,
            "user-following": following, "user-followers": followers, "user-feed": feed,
        ])
    }

    /// Seeds 001 and 004: Parse class files keyed by objectId, with pointers and ISO 8601 times. The first like
    /// has a second row (a double tap; Parse does not prevent it), and two users flagged the third post.
    var parseFiles: [String: String] {
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        func date(_ seconds: Int) -> String { iso.string(from: Date(timeIntervalSince1970: TimeInterval(seconds))) }
        func pointer(_ className: String, _ id: String) -> [String: Any] {
            ["__type": "Pointer", "className": className, "objectId": id]
        }
        let userRows = users.map {
            ["objectId": $0.uid, "username": $0.username, "createdAt": date(1_480_000_000)] as [String: Any]
        }
        let postRows = posts.map {
            [
                "objectId": $0.key, "user": pointer("_User", $0.owner), "createdAt": date($0.seconds),
                "caption": $0.caption,
                "imageFile": ["__type": "File", "name": "\($0.key).jpg", "url": "https://img.example/\($0.key).jpg"],
            ] as [String: Any]
        }
        var likeRows = likes.enumerated().map { n, like in
            ["objectId": "like\(n)", "fromUser": pointer("_User", like.user), "toPost": pointer("Post", like.post)]
                as [String: Any]
        }
        likeRows.append([
            "objectId": "likeAgain", "fromUser": pointer("_User", likes[0].user),
            "toPost": pointer("Post", likes[0].post),
        ])
        let followRows = follows.enumerated().map { n, follow in
            [
                "objectId": "follow\(n)", "fromUser": pointer("_User", follow.user),
                "toUser": pointer("_User", follow.target),
            ] as [String: Any]
        }
        return [
            "_User.json": Self.json(["results": userRows]), "Post.json": Self.json(postRows),
            "Like.json": Self.json(["results": likeRows]), "Follow.json": Self.json(["results": followRows]),
            "FlaggedContent.json": Self.json([
                "results": [
                    [
                        "objectId": "flag0", "fromUser": pointer("_User", "uBo"),
                        "toPost": pointer("Post", posts[2].key),
                    ],
                    [
                        "objectId": "flag1", "fromUser": pointer("_User", "uDi"),
                        "toPost": pointer("Post", posts[2].key),
                    ],
                ] as [[String: Any]]
            ]),
        ]
    }

    /// The example app of docs/layouts.md: `members`, `content/{post}` with `publisher`, `likes`, `follow`, `feed`.
    var pinboard: String {
        var likes: [String: [String: Any]] = [:], follow: [String: [String: [String: Any]]] = [:],
            feed: [String: [String: Any]] = [:]
        for like in self.likes { likes[like.post, default: [:]][like.user] = true }
        for f in follows {
            follow[f.user, default: [:]]["following", default: [:]][f.target] = true
            follow[f.target, default: [:]]["followers", default: [:]][f.user] = true
        }
        for entry in storedTimelines { feed[entry.user, default: [:]][entry.post] = ["by": owner(entry.post)!] }
        return Self.json([
            "members": Dictionary(
                uniqueKeysWithValues: users.map {
                    (
                        $0.uid,
                        ["handle": $0.username, "profile": ["displayName": $0.username.uppercased()]] as [String: Any]
                    )
                }),
            "content": Dictionary(
                uniqueKeysWithValues: posts.map {
                    (
                        $0.key,
                        [
                            "publisher": $0.owner, "timestamp": $0.seconds * 1000, "text": $0.caption,
                            "media": ["url": "https://img.example/\($0.key).jpg"],
                            "stats": ["likes": likers($0.key).count],
                        ] as [String: Any]
                    )
                }),
            "likes": likes, "follow": follow, "feed": feed,
        ])
    }
}

/// Every layout through the real binary: presets detected from the export, schema files, Parse folders and
/// zips, gzip and standard input, and the real FriendlyPix export.
@Suite struct LayoutTests {
    static let friendlyPix = CLI.repository.appendingPathComponent("Tests/Fixtures/friendlypix-initial_db.json")

    /// The full schema file example of docs/layouts.md ("Schema files"), as a user would copy it.
    static func manualSchema() throws -> String {
        let page = try String(contentsOf: CLI.repository.appendingPathComponent("docs/layouts.md"), encoding: .utf8)
        let section = try #require(page.range(of: "\n## Schema files\n"))
        let start = try #require(page.range(of: "```toml\n", range: section.upperBound..<page.endIndex))
        let end = try #require(page.range(of: "```\n", range: start.upperBound..<page.endIndex))
        return String(page[start.upperBound..<end.lowerBound])
    }

    func json(_ text: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
    }

    func writeParse(_ feed: Feed, to cli: CLI, folder: String) throws {
        for (name, text) in feed.parseFiles { try cli.write(text, to: "\(folder)/\(name)") }
    }

    /// Runs `fanout args…` in the test's folder, like `CLI.run` but with the arguments as an array.
    func run(_ cli: CLI, _ args: [String], stdin: Data? = nil) throws -> CLI.Result { try cli.run(args, stdin: stdin) }

    /// Runs `tool args…` in the test's folder (gzip, zip: packaging the fixtures as users receive them).
    func shell(_ cli: CLI, _ tool: String, _ args: String...) throws {
        let result = try runTool(tool, args, in: cli.folder)
        #expect(result.code == 0, "\(tool) \(args): \(result.stderr)")
    }

    /// Packs `folder` into `folder.zip` (with the folder inside, as archivers do) using Python's zipfile:
    /// Python is already needed by `make test`, the `zip` tool may not be installed.
    func zip(_ cli: CLI, _ folder: String) throws {
        try shell(cli, "python3", "-c", "import shutil; shutil.make_archive('\(folder)', 'zip', '.', '\(folder)')")
    }

    @Test func theSameDataInEveryLayoutGivesTheSameSnapshot() throws {
        let cli = try CLI()
        let feed = Feed.sample
        try cli.write(feed.makestagram, to: "makestagram.json")
        try cli.write(feed.instaclone, to: "instaclone.json")
        try writeParse(feed, to: cli, folder: "parse")
        try zip(cli, "parse")
        try cli.write(feed.pinboard, to: "pinboard.json")
        try EmulatorFolder.write(feed.instagramFlutterDocuments, to: cli.url("flutter").path)
        let schema = try Self.manualSchema()
        try cli.write(schema, to: "pinboard.toml")
        // Without its timestamp field, the same layout takes each post's time from its push ID.
        let untimed = schema.split(separator: "\n").filter { !$0.hasPrefix("created_at") }.joined(separator: "\n")
        #expect(untimed != schema)
        try cli.write(untimed, to: "untimed.toml")

        let runs: [(name: String, args: [String], schema: String)] = [
            ("makestagram", ["makestagram.json"], "makestagram"), ("instaclone", ["instaclone.json"], "instaclone"),
            ("parse-folder", ["parse"], "parse"), ("parse-zip", ["parse.zip"], "parse"),
            ("pinboard", ["pinboard.json", "--schema", "pinboard.toml"], "pinboard"),
            ("untimed", ["pinboard.json", "--schema", "untimed.toml"], "pinboard"),
            // Only `users` and `posts`: told from the other presets by its posts' fields.
            ("instagram-flutter", ["flutter"], "instagram-flutter"),
        ]
        var snapshots: [String: String] = [:]
        for run in runs {
            let result = try self.run(cli, ["export"] + run.args + ["--out", "snap-\(run.name)"])
            #expect(result.code == 0, "\(run.name): \(result.stderr)")
            snapshots[run.name] = try cli.read("snap-\(run.name)/snapshot.json")
            let check = try self.run(cli, ["check"] + run.args + ["--format", "json", "--fail-on", "never"])
            #expect(try json(check.stdout)["schema"] as? String == run.schema, "\(run.name) is read as \(run.schema)")
        }
        let reference = try #require(snapshots["makestagram"])
        for run in runs { #expect(snapshots[run.name] == reference, "\(run.name) gives the makestagram snapshot") }

        // And that snapshot is right: timelines and like counts as computed from the logical data.
        let snapshot = try json(reference)
        let timelines = snapshot["timelines"] as! [String: [String]]
        #expect(timelines == Dictionary(uniqueKeysWithValues: feed.users.map { ($0.uid, feed.timeline($0.uid)) }))
        let posts = snapshot["posts"] as! [String: [String: Any]]
        #expect(Set(posts.keys) == Set(feed.posts.map(\.key)))
        for post in feed.posts {
            #expect(posts[post.key]?["like_count"] as? Int == feed.likers(post.key).count, "likes of \(post.key)")
            #expect(posts[post.key]?["time"] as? Double == Double(post.seconds), "time of \(post.key)")
        }
        #expect(timelines["uAnn"]?.count == 7 && timelines["uDi"] == feed.timeline("uDi"))
    }

    @Test func gzipAndStandardInputGiveTheSameSnapshotAsTheFile() throws {
        let cli = try CLI()
        try cli.write(Feed.sample.makestagram, to: "export.json")
        try shell(cli, "gzip", "-k", "export.json")
        try FileManager.default.copyItem(at: cli.url("export.json.gz"), to: cli.url("backup-without-extension"))
        #expect(try cli.run("export", "export.json", "--out", "plain").code == 0)
        let plain = try cli.read("plain/snapshot.json")
        for file in ["export.json.gz", "backup-without-extension"] {
            let result = try cli.run("export", file, "--out", "out-\(file)")
            #expect(result.code == 0, "\(result.stderr)")
            #expect(try cli.read("out-\(file)/snapshot.json") == plain, "\(file)")
        }
        for file in ["export.json", "export.json.gz"] {
            let result = try cli.run(
                "export", "-", "--out", "stdin-\(file)", stdin: try Data(contentsOf: cli.url(file)))
            #expect(result.code == 0, "\(result.stderr)")
            #expect(try cli.read("stdin-\(file)/snapshot.json") == plain, "\(file) on standard input")
        }
        // A Parse zip can come on standard input too.
        try writeParse(Feed.sample, to: cli, folder: "parse")
        try zip(cli, "parse")
        let zipped = try cli.run("export", "-", "--out", "stdin-zip", stdin: try Data(contentsOf: cli.url("parse.zip")))
        #expect(zipped.code == 0, "\(zipped.stderr)")
        #expect(try cli.read("stdin-zip/snapshot.json") == plain)

        let compressed = try Data(contentsOf: cli.url("export.json.gz"))
        try compressed.prefix(compressed.count - 20).write(to: cli.url("cut.json.gz"))
        let cut = try cli.run("export", "cut.json.gz", "--out", "never")
        #expect(
            cut.code == 2
                && cut.stderr
                    == "Error: cannot read cut.json.gz: truncated gzip data: the file ends inside the compressed stream\n"
        )
        #expect(!cli.exists("never"))
    }

    @Test func friendlyPixBuildsAPagePerUserAndReportsTheMissingFanOut() throws {
        let cli = try CLI()
        let export = Self.friendlyPix.path
        // What the report must show, computed independently: each person's own posts and followed users'
        // posts that `feed/{uid}` lacks.
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.friendlyPix)) as! [String: Any]
        let people = root["people"] as! [String: Any], users = root["users"] as! [String: [String: Any]]
        let posts = root["posts"] as! [String: [String: Any]], feed = root["feed"] as! [String: [String: Any]]
        var missing = Set<String>()
        for uid in people.keys {
            let authors = Set([uid] + ((users[uid]?["following"] as? [String: Any])?.keys.map { $0 } ?? []))
            for (key, post) in posts where authors.contains(post["author"] as! String) && feed[uid]?[key] == nil {
                missing.insert("feed/\(uid)/\(key)")
            }
        }
        #expect(missing.count > 200)

        let check = try cli.run("check", export, "--format", "json")
        #expect(check.code == 1, "\(check.stderr)")
        let report = try json(check.stdout)
        #expect(report["schema"] as? String == "friendlypix")
        let findings = report["findings"] as! [[String: Any]]
        let reported = findings.filter { $0["rule"] as? String == "timeline-missing" }.map {
            ($0["paths"] as! [String])[0]
        }
        #expect(Set(reported) == missing)
        #expect(reported.count == missing.count, "each missing entry once")

        let build = try cli.run("build", export, "--out", "site")
        #expect(build.code == 0, "\(build.stderr)")
        let timelines = try TimelinePages(cli, site: "site")
        #expect(Set(timelines.posts.keys) == Set(people.keys), "a timeline per person")
        for (uid, files) in timelines.files {
            #expect(files.first?.hasSuffix("/index.html") == true, "\(uid) starts at index.html")
        }
        #expect(try cli.read("site/report.html").contains("feed/05781774870892877580/"))
        let kitty = try #require(
            cli.files(under: "site/posts").first {
                (try? cli.read("site/posts/\($0)"))?.contains("data-post=\"-K9euzjFOpEFYT5lUZrh\"") == true
            })
        #expect(try cli.read("site/posts/\(kitty)").contains("Kitty!!!"))
    }

    @Test func aSchemaFileWrittenFromTheReadmeChecksAnInventedLayout() throws {
        let cli = try CLI()
        try cli.write(try Self.manualSchema(), to: "pinboard.toml")
        let feed = Feed.sample
        // Drift a user of this app would have: a stale counter, a fan-out entry that was never written.
        let first = feed.posts[0].key, ann = "uAnn"
        let lastOfAnn = try #require(feed.timeline(ann).last)
        var root = try json(feed.pinboard)
        var content = root["content"] as! [String: [String: Any]]
        content[first]!["stats"] = ["likes": 7]
        // A client with a wrong clock: the timestamp is two days after the time in the post's push ID.
        let late = feed.posts[1]
        content[late.key]!["timestamp"] = (late.seconds + 2 * 86_400) * 1000
        root["content"] = content
        var stored = root["feed"] as! [String: [String: Any]]
        stored[ann]![lastOfAnn] = nil
        root["feed"] = stored
        try cli.write(Feed.json(root), to: "drifted.json")

        let result = try cli.run("check", "drifted.json", "--schema", "pinboard.toml", "--format", "json")
        #expect(result.code == 1, "\(result.stderr)")
        let report = try json(result.stdout)
        #expect(report["schema"] as? String == "pinboard")
        let findings = report["findings"] as! [[String: Any]]
        func paths(_ rule: String) -> [String] {
            findings.filter { $0["rule"] as? String == rule }.flatMap { $0["paths"] as! [String] }
        }
        #expect(paths("like-count-mismatch") == ["content/\(first)/stats/likes"])
        #expect(paths("timeline-missing") == ["feed/\(ann)/\(lastOfAnn)"])
        #expect(paths("like-unknown-user").contains("likes/\(feed.posts[3].key)/uGhost"))
        #expect(paths("follow-self").contains("follow/uDi/following/uDi"))
        #expect(paths("push-id-time") == ["content/\(late.key)/timestamp"])

        // Relations left out switch off the rules that need them, and the report says why.
        let partial = try Self.manualSchema().replacingOccurrences(
            of: "[timeline]\npath = \"feed/{user}/{post}\"\nposter = \"by\"\n", with: "")
        try cli.write(partial, to: "partial.toml")
        let skipped = try json(
            try cli.run("check", "drifted.json", "--schema", "partial.toml", "--format", "json").stdout)
        let reasons = (skipped["summary"] as! [String: Any])["rules_skipped"] as! [[String: String]]
        let timelineMissing = try #require(reasons.first { $0["rule"] == "timeline-missing" })
        #expect(timelineMissing["reason"]?.contains("timeline") == true, "\(timelineMissing)")
        #expect(reasons.contains { $0["rule"] == "post-flagged" && $0["reason"]?.contains("flags") == true })
    }

    @Test func parseExportsRunTheirRulesAndMarkFlaggedPosts() throws {
        let cli = try CLI()
        let feed = Feed.sample
        try writeParse(feed, to: cli, folder: "parse")
        let result = try cli.run("check", "parse", "--format", "json")
        #expect(result.code == 1, "\(result.stderr)")
        let report = try json(result.stdout)
        let all = report["findings"] as! [[String: Any]]
        func findings(_ rule: String) -> [[String]] {
            all.filter { $0["rule"] as? String == rule }.map { $0["paths"] as! [String] }
        }
        #expect(findings("like-duplicate") == [["Like/likeAgain", "Like/like0"]])
        #expect(findings("like-unknown-user") == [["Like/like9"]])
        #expect(findings("like-unknown-post") == [["Like/like10"]])
        #expect(findings("follow-self") == [["Follow/follow4"]])
        #expect(findings("follow-unknown-user") == [["Follow/follow5"]])
        let flagged = feed.posts[2].key
        #expect(findings("post-flagged") == [["Post/\(flagged)", "FlaggedContent/flag0", "FlaggedContent/flag1"]])
        let flaggedFinding = try #require(all.first { $0["rule"] as? String == "post-flagged" })
        #expect(flaggedFinding["severity"] as? String == "info")
        #expect(flaggedFinding["message"] as? String == "post \(flagged) by cy was flagged as inappropriate by bo, di")
        let skipped = (report["summary"] as! [String: Any])["rules_skipped"] as! [[String: String]]
        for rule in ["like-count-mismatch", "timeline-missing", "follow-mirror-missing"] {
            #expect(skipped.contains { $0["rule"] == rule }, "Parse has no counters, timelines or mirrors: \(rule)")
        }

        let build = try cli.run("build", "parse", "--out", "site")
        #expect(build.code == 0, "\(build.stderr)")
        var marked: [String] = [], unmarked = 0
        for file in cli.files(under: "site/posts") {
            let html = try cli.read("site/posts/\(file)")
            if html.contains("data-flagged=\"true\"") {
                marked.append(html.firstMatch(of: /data-post="([^"]*)"/).map { String($0.output.1) } ?? "?")
            } else {
                unmarked += 1
            }
        }
        #expect(marked == [flagged] && unmarked == feed.posts.count - 1)
        let cyTimeline = try #require(try TimelinePages(cli, site: "site").files["uCy"])
        #expect(
            try cyTimeline.contains { try cli.read("site/\($0)").contains("data-flagged=\"true\"") },
            "the card is marked on timelines too")
        let siteReport = try cli.read("site/report.html")
        #expect(siteReport.contains("FlaggedContent/flag1"))
        // Parse rows are found by their own key (`Like/{id}`): the report's links name the users and posts of the
        // rows, the double like's liker and post, the flag's post and the users who flagged it.
        func pageLinks(_ path: String) throws -> [String] {
            let finding = try #require(
                siteReport.matches(of: /<li class="finding [\s\S]*?\n<\/li>/).map { String($0.output) }
                    .first { $0.contains("<code>\(path)</code>") }, "a finding at \(path)")
            return finding.matches(of: /<ul class="finding-pages">(.*)<\/ul>/).flatMap {
                $0.output.1.matches(of: />([^<]+)<\/a>/).map { String($0.output.1) }
            }
        }
        let liker = try #require(feed.users.first { $0.uid == feed.likes[0].user }).username
        #expect(
            try pageLinks("Like/likeAgain") == [
                "\(liker)’s profile", "\(liker)’s timeline", "post \(feed.likes[0].post)",
            ])
        // `Post/{post}` names no poster (Parse keeps the owner in a field), so cy is not linked: only what the paths name.
        #expect(
            try pageLinks("FlaggedContent/flag1") == [
                "bo’s profile", "bo’s timeline", "di’s profile", "di’s timeline",
                "post \(flagged)",
            ])
    }

    @Test func schemasCommandListsThePresetsAndPrintsACopyableFile() throws {
        let cli = try CLI()
        let list = try cli.run("schemas")
        #expect(list.code == 0)
        #expect(
            list.stdout.split(separator: "\n").map { String($0.prefix { $0 != " " }) }
                == ["makestagram", "instaclone", "friendlypix", "instagram-flutter", "parse"])
        #expect(try cli.run("schemas", "list").stdout == list.stdout)

        let shown = try cli.run("schemas", "show", "instaclone")
        #expect(shown.code == 0 && shown.stdout.contains("path = \"user-feed/{user}/{post}\""))
        // Copy, edit the name, use: the same as the preset.
        try cli.write(
            shown.stdout.replacingOccurrences(of: "name = \"instaclone\"", with: "name = \"ours\""), to: "ours.toml")
        try cli.write(Feed.sample.instaclone, to: "export.json")
        #expect(try cli.run("export", "export.json", "--out", "a").code == 0)
        let copied = try cli.run("export", "export.json", "--schema", "ours.toml", "--out", "b")
        #expect(copied.code == 0, "\(copied.stderr)")
        #expect(try cli.read("a/snapshot.json") == cli.read("b/snapshot.json"))
        let check = try json(try cli.run("check", "export.json", "--schema", "./ours.toml", "--format", "json").stdout)
        #expect(check["schema"] as? String == "ours")

        let unknown = try cli.run("schemas", "show", "myspace")
        #expect(
            unknown.code == 2
                && unknown.stderr.contains(
                    "unknown schema \"myspace\"; presets: makestagram, instaclone, friendlypix, instagram-flutter, parse"
                )
        )
        #expect(try cli.run("export", "export.json", "--schema", "myspace", "--out", "c").code == 2)
    }

    @Test func schemaFileMistakesExitTwoNamingFileLineAndKeyAndWriteNothing() throws {
        let cli = try CLI()
        try cli.write(Feed.sample.pinboard, to: "pinboard.json")
        let schema = try Self.manualSchema()
        let badUnit = schema.replacingOccurrences(of: "unit = \"ms\"", with: "unit = \"msec\"")
        try cli.write(badUnit, to: "bad-unit.toml")
        let line =
            badUnit.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("created_at") }!
            + 1
        try cli.write(schema.replacingOccurrences(of: "[follows]", with: "[follows"), to: "bad-syntax.toml")
        try cli.write(schema.replacingOccurrences(of: "caption = ", with: "captoin = "), to: "typo.toml")
        let cases: [(String, String)] = [
            (
                "bad-unit.toml",
                "Error: bad-unit.toml: line \(line): posts.created_at.unit: \"msec\" is not a unit; use s, ms, us or iso8601, or a format such as format = \"%Y-%m-%d %H:%M\"\n"
            ),
            ("bad-syntax.toml", "Error: bad-syntax.toml: invalid TOML at line "),
            ("typo.toml", "Error: typo.toml: line "),
            ("missing.toml", "Error: cannot read schema file missing.toml: "),
        ]
        for (file, message) in cases {
            for command in ["export", "build", "check"] {
                let result = try run(
                    cli, [command, "pinboard.json", "--schema", file] + (command == "check" ? [] : ["--out", "out"]))
                #expect(result.code == 2, "\(command) \(file)")
                #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
                #expect(result.stderr.split(separator: "\n").count == 1 && result.stdout.isEmpty)
            }
        }
        #expect(
            try cli.run("check", "pinboard.json", "--schema", "typo.toml").stderr.contains("posts.captoin: unknown key")
        )
        #expect(!cli.exists("out"), "nothing written")
    }

    @Test func unknownAndAmbiguousLayoutsExitTwoListingKeysAndPresets() throws {
        let cli = try CLI()
        try cli.write("{\"comments\": {}, \"-Kgeo\": {\"g\": \"x\"}}", to: "unknown.json")
        try cli.write("{\"users\": {}, \"posts\": {}}", to: "ambiguous.json")
        try cli.write("{\"timeline\": {}, \"user-feed\": {}}", to: "mixed.json")
        let unknown = try cli.run("export", "unknown.json", "--out", "out")
        #expect(unknown.code == 2)
        #expect(unknown.stderr.contains("cannot tell the layout: its top-level keys are \"comments\", \"-Kgeo\""))
        #expect(unknown.stderr.contains("presets: makestagram, instaclone, friendlypix, instagram-flutter, parse"))
        let ambiguous = try cli.run("export", "ambiguous.json", "--out", "out")
        #expect(
            ambiguous.code == 2
                && ambiguous.stderr.contains("ambiguous layout: its top-level keys are \"users\", \"posts\""))
        let mixed = try cli.run("check", "mixed.json")
        #expect(mixed.code == 2 && mixed.stderr.contains("\"user-feed\" (instaclone)"))
        #expect(!cli.exists("out"))
        // Naming the layout settles it.
        #expect(try cli.run("export", "ambiguous.json", "--schema", "instaclone", "--out", "out").code == 0)
    }
}
