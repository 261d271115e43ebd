import Foundation
import Testing

/// Records keyed by a field rather than by the key they are stored under, keys stored as numbers, copies whose
/// original does not exist, and dates as apps write them (docs/layouts.md): through the binary, as a user runs it.
@Suite struct KeysAsStoredTests {
    /// Posts stored under `posts/post1` that the app numbers by `postid` (a string in one, a number in the other),
    /// likes keyed by those numbers (post 1's counter says 5), a comment that names its post by the number, a copy of a field the user does not have, and dates in the
    /// app's own format.
    static let export = """
        {
          "users": {
            "u1": {"username": "ada"},
            "u2": {"username": "bob"}
          },
          "posts": {
            "post1": {"postid": "1", "uid": "u1", "caption": "first", "likeCount": 5, "date": "2023/12/21 15:39:16"},
            "post4": {"postid": 4, "uid": "u2", "caption": "fourth", "likeCount": 0, "date": "2023/1/5 8:00:00"}
          },
          "likes": {
            "1": {"u2": true}
          },
          "comments": {
            "c1": {"postid": 4, "uid": "u1", "text": "a comment on the fourth"}
          },
          "login": {
            "u1": {"email": "ada@example.com"}
          }
        }
        """

    static let schema = """
        name = "numbered"

        [users]
        path = "users/{user}"
        username = "username"
        fields = { email = "email" }

        [posts]
        path = "posts/{post}"
        key = "postid"
        poster = "uid"
        caption = "caption"
        like_count = "likeCount"
        created_at = { field = "date", format = "%Y/%m/%d %H:%M:%S", zone = "+01:00" }

        [likes]
        path = "likes/{post}/{user}"

        [comments]
        path = "comments/{id}"
        post = "postid"
        user = "uid"
        text = "text"

        [[copies]]
        name = "login-email"
        at = "login/{user}/email"
        of = "users.email"
        via = "user"
        """

    func check(_ cli: CLI) throws -> [[String: Any]] {
        let result = try cli.run(
            "check", "export.json", "--schema", "numbered.toml", "--format", "json", "--max-per-rule", "all")
        #expect(result.code == 1, "\(result.stderr)")
        let report = try JSONSerialization.jsonObject(with: result.stdoutData) as! [String: Any]
        return report["findings"] as! [[String: Any]]
    }

    @Test func findingsAndFixesNameThePathsTheExportHas() throws {
        let cli = try CLI()
        try cli.write(Self.export, to: "export.json")
        try cli.write(Self.schema, to: "numbered.toml")
        let findings = try check(cli)
        let counter = try #require(findings.first { $0["rule"] as? String == "like-count-mismatch" })
        #expect((counter["paths"] as? [String])?.first == "posts/post1/likeCount", "\(counter)")
        let fix = try #require(counter["fix"] as? [String: Any])
        #expect(Array(fix.keys) == ["posts/post1/likeCount"], "the fix writes where the counter is: \(fix)")
        // The key field is a string in one post and a number in the other: both are keys, neither a wrong type.
        #expect(!findings.contains { $0["rule"] as? String == "post-field" }, "\(findings)")
        let patch = try cli.run("export", "export.json", "--schema", "numbered.toml", "--out", "fixed", "--repair")
        #expect(patch.code == 0, "\(patch.stderr)")
        let entries = try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url("fixed/repair.patch.json")))
        for path in (entries as! [String: Any]).keys {
            let top = try JSONSerialization.jsonObject(with: Data(Self.export.utf8)) as! [String: [String: Any]]
            let parts = path.split(separator: "/").map(String.init)
            #expect(top[parts[0]]?[parts[1]] != nil, "\(path) lies under a record the export has")
        }
    }

    @Test func aCommentNamingItsPostByANumberIsKept() throws {
        let cli = try CLI()
        try cli.write(Self.export, to: "export.json")
        try cli.write(Self.schema, to: "numbered.toml")
        #expect(!(try check(cli)).contains { $0["rule"] as? String == "comment-unknown-post" })
        let site = try cli.run(
            "build", "export.json", "--schema", "numbered.toml", "--out", "site", "--fail-on", "never")
        #expect(site.code == 0, "\(site.stderr)")
        let pages = try FileManager.default.subpathsOfDirectory(atPath: cli.url("site").path).filter {
            $0.hasSuffix(".html")
        }
        let withComment = try pages.filter { try cli.read("site/\($0)").contains("a comment on the fourth") }
        #expect(!withComment.isEmpty, "the comment on post 4 is shown")
    }

    @Test func aCopyWhoseOriginalIsMissingIsReportedButNotDeleted() throws {
        let cli = try CLI()
        try cli.write(Self.export, to: "export.json")
        try cli.write(Self.schema, to: "numbered.toml")
        let copy = try #require(try check(cli).first { $0["rule"] as? String == "login-email" })
        #expect((copy["paths"] as? [String])?.first == "login/u1/email")
        #expect((copy["fix"] as? [String: Any])?.isEmpty == true, "the copy is the only place the email exists")
        let patch = try cli.run("export", "export.json", "--schema", "numbered.toml", "--out", "fixed", "--repair")
        #expect(patch.code == 0, "\(patch.stderr)")
        #expect(!(try cli.read("fixed/repair.patch.json")).contains("login/u1/email"))
    }

    @Test func datesInTheAppsFormatAndZoneAreRead() throws {
        let cli = try CLI()
        try cli.write(Self.export, to: "export.json")
        try cli.write(Self.schema, to: "numbered.toml")
        let result = try cli.run("export", "export.json", "--schema", "numbered.toml", "--out", "snap")
        #expect(result.code == 0, "\(result.stderr)")
        let snapshot = try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url("snap/snapshot.json")))
        let posts = try #require((snapshot as? [String: Any])?["posts"] as? [String: [String: Any]])
        // 2023-12-21 15:39:16 at +01:00 is 14:39:16 UTC; 2023-01-05 08:00:00 at +01:00 is 07:00:00 UTC.
        #expect(posts["1"]?["time"] as? Double == 1_703_169_556, "\(posts["1"] ?? [:])")
        #expect(posts["4"]?["time"] as? Double == 1_672_902_000, "\(posts["4"] ?? [:])")
    }

    /// A date that does not fit the format is a `post-field` finding that quotes it and says the format, in check
    /// and in the SQL the engines run.
    @Test func aDateThatDoesNotReadIsNamedWithItsValue() throws {
        let cli = try CLI()
        try cli.write(Self.export.replacing("\"2023/1/5 8:00:00\"", with: "\"5 Jan 2023\""), to: "export.json")
        try cli.write(Self.schema, to: "numbered.toml")
        let problem = try #require(try check(cli).first { $0["rule"] as? String == "post-field" })
        #expect((problem["paths"] as? [String]) == ["posts/post4/date"])
        #expect(
            problem["message"] as? String
                == "posts/post4/date is a string \"5 Jan 2023\", expected a string in the format %Y/%m/%d %H:%M:%S",
            "\(problem)")
        let tables = try cli.run("tables", "export.json", "--schema", "numbered.toml", "--out", "tables")
        #expect(tables.code == 0, "\(tables.stderr)")
        #expect(try cli.read("tables/posts/part-00000.ndjson").contains("string \\\"5 Jan 2023\\\""))
    }

    @Test func aFormatWithAnUnknownDirectiveIsAUsageError() throws {
        let cli = try CLI()
        try cli.write(Self.export, to: "export.json")
        try cli.write(Self.schema.replacingOccurrences(of: "%H:%M:%S", with: "%H:%Q"), to: "numbered.toml")
        let result = try cli.run("check", "export.json", "--schema", "numbered.toml")
        #expect(result.code == 2)
        #expect(result.stderr.contains("posts.created_at.format") && result.stderr.contains("%Q"), "\(result.stderr)")
    }
}
