import FanoutTestSupport
import Foundation
import Testing

/// Look-alike usernames (docs/site.md "Names as they are", docs/checks.md "Look-alike usernames"): five
/// users who all read "alice", built and checked by the binary.
@Suite struct LookAlikeNamesTests {
    /// By uid: the usernames, and how pages show them.
    static let users: [(uid: String, username: String, shown: String)] = [
        ("alice", "alice", "alice"),
        ("u2", "al\u{200B}ice", "al⟨U+200B⟩ice"),
        ("u3", "alice\u{200D}", "alice⟨U+200D⟩"),
        ("u4", "\u{202E}ecila", "⟨U+202E⟩ecila"),
        ("u5", "\u{410}lice", "\u{410}lice"),
    ]
    static let post = "-Kfm1DtVx0kQ9zPq2Lm7"

    /// Makestagram: bob posts once; the five like the post and follow bob, so every list a name is in has them all.
    static func export() throws -> String {
        let uids = users.map(\.uid)
        var tree: [String: Any] = [
            "posts": [
                "bob": [
                    post: [
                        "created_at": 1_490_119_356, "image_url": "https://example.com/b.jpg", "image_height": 300,
                        "like_count": uids.count, "poster": ["uid": "bob", "username": "bob"], "caption": "hi",
                    ]
                ]
            ],
            "postLikes": [post: Dictionary(uniqueKeysWithValues: uids.map { ($0, true) })],
            "following": Dictionary(uniqueKeysWithValues: uids.map { ($0, ["bob": true]) }),
            "followers": ["bob": Dictionary(uniqueKeysWithValues: uids.map { ($0, true) })],
            "timeline": Dictionary(uniqueKeysWithValues: (uids + ["bob"]).map { ($0, [post: ["poster_uid": "bob"]]) }),
        ]
        var people: [String: Any] = ["bob": ["username": "bob"]]
        for user in users { people[user.uid] = ["username": user.username] }
        tree["users"] = people
        let data = try JSONSerialization.data(withJSONObject: tree, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    @Test func pagesShowInvisibleCharactersAndIsolateNames() throws {
        let cli = try CLI()
        try cli.write(try Self.export(), to: "export.json")
        let build = try cli.run("build", "export.json", "--out", "site")
        #expect(build.code == 0, "\(build.stderr)")
        let postPage = try cli.read("site/posts/-~4bfm1~44t~56x0k~519z~50q2~4cm7.html")
        let profile = try cli.read("site/users/bob/profile.html")
        let index = try cli.read("site/index.html")
        for user in Self.users {
            #expect(postPage.contains("><bdi>\(user.shown)</bdi></a></li>"), "\(user.uid) among the likers")
            #expect(profile.contains("><bdi>\(user.shown)</bdi></a></li>"), "\(user.uid) among bob's followers")
            #expect(index.contains(">\(user.shown)</bdi></a>"), "\(user.uid) on the index")
            let timeline = try cli.read("site/users/\(user.uid)/index.html")
            #expect(timeline.contains("<h1><bdi>\(user.shown)</bdi>’s timeline</h1>"), "\(user.uid)'s timeline")
            let markdown = try cli.read("site/users/\(user.uid)/index.md")
            #expect(markdown.contains("# \(user.shown)’s timeline"), "\(user.uid)'s Markdown twin")
        }
        // No page, feed or data file holds an invisible scalar as it is.
        for file in cli.files(under: "site") where !file.hasPrefix(".") {
            let text = try cli.read("site/" + file)
            #expect(
                !text.unicodeScalars.contains { $0 == "\u{200B}" || $0 == "\u{200D}" || $0 == "\u{202E}" }, "\(file)")
        }
    }

    @Test func checkReportsUsernamesThatLookAlike() throws {
        let cli = try CLI()
        try cli.write(try Self.export(), to: "export.json")
        let check = try cli.run("check", "export.json", "--format", "json")
        #expect(check.code == 0, "\(check.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any]
        let findings = (report?["findings"] as? [[String: Any]] ?? []).filter {
            $0["rule"] as? String == "user-name-confusable"
        }
        #expect(findings.count == 1, "\(check.stdout)")
        #expect(findings.first?["severity"] as? String == "info")
        #expect(
            findings.first?["message"] as? String
                == "the usernames of users alice, u2, u3, u4, u5 look alike: each reads \"alice\"")
        #expect(findings.first?["paths"] as? [String] == Self.users.map { "users/\($0.uid)/username" })
        let text = try cli.run("check", "export.json", "--explain", "user-name-confusable")
        #expect(text.code == 0 && text.stdout.contains("look alike"), "\(text.stdout)")
    }
}
