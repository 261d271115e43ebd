import Foundation
import Testing

/// One rule broken in a real export file.
struct RuleCase: Sendable, CustomTestStringConvertible {
    let rule: String
    /// The first path the finding must name.
    let path: String
    var instaclone = false
    let breakIt: @Sendable (inout MiniExport) -> Void

    var testDescription: String { rule }

    static let pa = MiniExport.pa, pb = MiniExport.pb

    /// Every rule of docs/checks.md.
    static let all: [RuleCase] = [
        RuleCase(rule: "like-count-mismatch", path: "posts/alice/\(pa)/like_count") {
            $0.set("posts/alice/\(pa)/like_count", 3)
        },
        RuleCase(rule: "like-count-negative", path: "posts/bob/\(pb)/like_count") {
            $0.set("posts/bob/\(pb)/like_count", -1)
        },
        RuleCase(rule: "like-unknown-user", path: "postLikes/\(pa)/ghost") { $0.set("postLikes/\(pa)/ghost", true) },
        RuleCase(rule: "like-unknown-post", path: "postLikes/-KgoneGoneGoneGone00/alice") {
            $0.set("postLikes/-KgoneGoneGoneGone00/alice", true)
        },
        RuleCase(rule: "like-mirror-missing", path: "user-likes/bob/\(pa)", instaclone: true) {
            $0.set("user-likes", nil)
        },
        RuleCase(rule: "like-duplicate", path: "postLikes/\(pa)/bob") { $0.set("postLikes/\(pa)/bob", "<repeat>") },
        RuleCase(rule: "poster-copy-stale", path: "posts/alice/\(pa)/poster/username") {
            $0.set("posts/alice/\(pa)/poster/username", "alice_before_rename")
        },
        RuleCase(rule: "poster-copy-uid", path: "posts/bob/\(pb)/poster/uid") {
            $0.set("posts/bob/\(pb)/poster/uid", "alice")
        },
        RuleCase(rule: "post-unknown-poster", path: "posts/ghost/-Kfm1DtVx0kQ9zPq2Lm8") { export in
            var post = (export.tree["posts"] as! [String: [String: Any]])["alice"]![pa] as! [String: Any]
            post["poster"] = ["uid": "ghost", "username": "ghost"]
            post["like_count"] = 0
            export.set("posts/ghost/-Kfm1DtVx0kQ9zPq2Lm8", post)
        },
        RuleCase(rule: "post-field", path: "posts/alice/\(pa)/image_url") {
            $0.set("posts/alice/\(pa)/image_url", nil)
        },
        RuleCase(rule: "follow-mirror-missing", path: "followers/bob/alice") { $0.set("followers/bob/alice", nil) },
        RuleCase(rule: "follow-unknown-user", path: "following/alice/ghost") { export in
            export.set("following/alice/ghost", true)
            export.set("followers/ghost/alice", true)
        },
        RuleCase(rule: "follow-self", path: "following/bob/bob") { export in
            export.set("following/bob/bob", true)
            export.set("followers/bob/bob", true)
        },
        RuleCase(rule: "timeline-missing", path: "timeline/alice/\(pb)") { $0.set("timeline/alice/\(pb)", nil) },
        RuleCase(rule: "timeline-stale", path: "timeline/alice/\(pb)") { export in
            export.set("following/alice", nil)
            export.set("followers/bob", nil)
        },
        RuleCase(rule: "timeline-unknown-post", path: "timeline/alice/-KgoneGoneGoneGone00") {
            $0.set("timeline/alice/-KgoneGoneGoneGone00", ["poster_uid": "bob"])
        },
        RuleCase(rule: "timeline-poster", path: "timeline/bob/\(pa)/poster_uid") {
            $0.set("timeline/bob/\(pa)/poster_uid", "bob")
        },
        RuleCase(rule: "key-invalid", path: "users/ca.rol") { $0.set("users/ca.rol", ["username": "carol"]) },
        RuleCase(rule: "push-id-time", path: "posts/alice/\(pa)/created_at") {
            $0.set("posts/alice/\(pa)/created_at", 1_490_119_356_000)  // milliseconds where seconds belong
        },
    ]

    /// The rules whose findings carry a fix (the ones `--repair` must leave without findings).
    static let mechanical: Set<String> = [
        "like-count-mismatch", "like-count-negative", "like-unknown-user", "like-unknown-post", "like-mirror-missing",
        "like-duplicate", "poster-copy-stale", "poster-copy-uid", "follow-mirror-missing", "follow-unknown-user",
        "follow-self", "timeline-missing", "timeline-stale", "timeline-unknown-post", "timeline-poster",
    ]
}

/// Each rule through the CLI on real files: a minimal export that triggers it, one that does not, and the
/// repair of what it found.
@Suite struct RuleExportTests {
    @Test func consistentExportsHaveNoFindings() throws {
        let cli = try CLI()
        for (name, export) in [("makestagram", MiniExport.makestagram), ("instaclone", MiniExport.instaclone)] {
            try cli.write(try export.text(), to: "\(name).json")
            let (code, findings, _) = try cli.jsonReport("\(name).json")
            #expect(code == 0 && findings.isEmpty, "\(name): \(findings)")
        }
    }

    /// Any finite timestamp is a number the push-ID rule can report: 1e300 seconds is more days than an `Int`
    /// holds, which crashed `check` (found by `make fuzz`).
    @Test func aTimestampBeyondAnyDateIsReportedNotACrash() throws {
        let cli = try CLI()
        var export = MiniExport.makestagram
        export.set("posts/alice/\(MiniExport.pa)/created_at", 1e300)
        try cli.write(try export.text(), to: "far.json")
        let (code, findings, _) = try cli.jsonReport("far.json", ["--fail-on", "info"])
        #expect(code == 1)
        let message = findings.first { $0["rule"] as? String == "push-id-time" }?["message"] as? String
        #expect(
            message?.contains("is timestamped 1.1574074074074075e+295 days away from its push ID's time") == true,
            "\(findings)")
    }

    /// The Instagram clone stores edges as `1`: repairs write `1` there too, so the repaired database is the one
    /// the app would have written.
    @Test func instacloneRepairsWriteOneForEdges() throws {
        let cli = try CLI()
        let clean = MiniExport.instaclone
        var broken = clean
        for path in ["user-likes/bob/\(MiniExport.pa)", "user-followers/alice/bob", "user-feed/bob/\(MiniExport.pa)"] {
            broken.set(path, nil)
        }
        try cli.write(try broken.text(), to: "broken.json")
        let (code, findings, _) = try cli.jsonReport("broken.json")
        #expect(code == 1 && findings.count == 3, "\(findings)")
        // Fix entries, as the JSON report writes them (a parsed `true` would also read as 1).
        let report = try cli.run(["check", "broken.json", "--format", "json"]).stdout
        for path in ["user-likes/bob/\(MiniExport.pa)", "user-followers/alice/bob", "user-feed/bob/\(MiniExport.pa)"] {
            #expect(report.contains("\"\(path)\": 1\n"), "\(path): \(report)")
        }
        #expect(try cli.run(["export", "broken.json", "--out", "out", "--repair"]).code == 0)
        let repaired = try cli.read("out/repaired.json")
        #expect(!repaired.contains("true"), "\(repaired)")
        #expect(try cli.jsonReport("out/repaired.json").findings.isEmpty)
    }

    @Test(arguments: RuleCase.all)
    func eachRuleIsTriggeredAndRepaired(_ rule: RuleCase) throws {
        let cli = try CLI()
        var export = rule.instaclone ? MiniExport.instaclone : MiniExport.makestagram
        try cli.write(try export.text(), to: "clean.json")
        let (_, clean, _) = try cli.jsonReport("clean.json", ["--fail-on", "never"])
        #expect(!clean.contains { $0["rule"] as? String == rule.rule })

        rule.breakIt(&export)
        try cli.write(try export.text(), to: "broken.json")
        let (code, findings, _) = try cli.jsonReport("broken.json", ["--fail-on", "info"])
        #expect(code == 1)
        let mine = findings.filter { $0["rule"] as? String == rule.rule }
        #expect(
            mine.contains { ($0["paths"] as? [String])?.first == rule.path },
            "\(rule.rule) at \(rule.path): \(findings)")

        let repair = try cli.run(["export", "broken.json", "--out", "out", "--repair"])
        #expect(repair.code == 0, "\(repair.stderr)")
        let (_, after, _) = try cli.jsonReport("out/repaired.json", ["--fail-on", "never"])
        let mechanical = after.filter { RuleCase.mechanical.contains($0["rule"] as? String ?? "") }
        #expect(mechanical.isEmpty, "repaired.json still has \(mechanical)")
        if !RuleCase.mechanical.contains(rule.rule) {
            #expect(after.contains { $0["rule"] as? String == rule.rule }, "a finding without a mechanical fix stays")
        }
    }
}
