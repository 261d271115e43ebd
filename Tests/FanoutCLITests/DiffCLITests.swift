import FanoutTestSupport
import Foundation
import Testing

/// `fanout diff` through the binary (docs/diff-and-history.md): pairs of exports with known edits, the edits
/// counted independently of Fanout (a Makestagram export's facts read with Foundation), and the findings the edits
/// cause or fix.
@Suite struct DiffCLITests {
    /// The JSON report of `fanout diff` as Foundation objects.
    static func report(_ cli: CLI, _ file: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(cli.read(file).utf8)) as! [String: Any]
    }

    /// Each relation's added, removed and changed paths in a diff report.
    static func changes(_ report: [String: Any]) -> [String: [String: Set<String>]] {
        var out: [String: [String: Set<String>]] = [:]
        for relation in report["data"] as! [[String: Any]] {
            out[relation["relation"] as! String] = Dictionary(
                uniqueKeysWithValues: ["added", "removed", "changed"].map { kind in
                    (kind, Set((relation[kind] as! [[String: Any]]).map { $0["path"] as! String }))
                })
        }
        return out
    }

    /// (rule, first path) of each finding of a list of a diff report, or of a JSON report's findings.
    static func entries(_ findings: Any?) -> Set<[String]> {
        Set((findings as! [[String: Any]]).map { [$0["rule"] as! String, ($0["paths"] as! [String]).first ?? ""] })
    }

    /// Two nightly backups of a generated app: the second is the first repaired (its own repair patch, applied with
    /// Foundation), with users, posts, likes and follows added and removed and new drift injected. The diff reports
    /// exactly the facts that differ, counted independently, the drift as new findings and the repaired ones fixed.
    @Test func generatedBackupsADayApartGiveExactlyTheirEdits() throws {
        let cli = try CLI()
        let pair = try DiffPairs.generated(cli)
        let tree = try JSONTree(cli.read("new.json"))
        let (leaving, newcomer, friend, newPost) = (pair.leaving, pair.newcomer, pair.friend, pair.newPost)
        let (likedPost, unliker, otherPost, liker) = (pair.likedPost, pair.unliker, pair.otherPost, pair.liker)
        let (follower, followed) = (pair.follower, pair.followed)
        let result = try cli.run(
            "diff", "old.json", "new.json", "--format", "json", "--output", "diff.json", "--format", "text")
        #expect(result.code == 1, "a new error fails the diff: \(result.stderr)")
        let report = try Self.report(cli, "diff.json")

        // The data: exactly the facts that differ, counted from the two trees.
        let before = DiffPairs.facts(try JSONTree(cli.read("old.json"))), after = DiffPairs.facts(tree)
        let reported = Self.changes(report)
        #expect(Set(reported.keys) == Set(before.keys))
        for (relation, old) in before {
            let new = after[relation]!
            let expected = [
                "added": Set(new.keys).subtracting(old.keys), "removed": Set(old.keys).subtracting(new.keys),
                "changed": Set(old.keys.filter { new[$0] != nil && new[$0] != old[$0] }),
            ]
            #expect(reported[relation] == expected, "\(relation)")
            let counts = (report["data"] as! [[String: Any]]).first { $0["relation"] as? String == relation }!
            #expect(counts["before"] as? Int == old.count && counts["after"] as? Int == new.count, "\(relation)")
        }
        // The edits are among them, by construction: the newcomer, the leaver, the likes, the unfollow.
        #expect(
            reported["users"]!["added"] == ["users/\(newcomer)"]
                && reported["users"]!["removed"] == ["users/\(leaving)"])
        #expect(reported["likes"]!["removed"]!.contains("postLikes/\(likedPost)/\(unliker)"))
        #expect(
            reported["likes"]!["added"]!.isSuperset(of: [
                "postLikes/\(otherPost)/\(liker)", "postLikes/\(newPost)/\(friend)",
            ]))
        #expect(reported["following"]!["removed"]!.contains("following/\(follower)/\(followed)"))
        #expect(reported["posts"]!["changed"]!.isSuperset(of: [pair.drifted, pair.stale]))

        // The audit: the injected drift is new, everything the repair fixed is fixed.
        let audit = report["audit"] as! [String: Any]
        #expect(
            Self.entries(audit["new"]) == [
                ["like-count-mismatch", "\(pair.drifted)/like_count"],
                ["poster-copy-stale", "\(pair.stale)/poster/username"],
            ])
        let oldCheck = try cli.run("check", "old.json", "--format", "json")
        let oldFindings = try JSONSerialization.jsonObject(with: Data(oldCheck.stdout.utf8)) as! [String: Any]
        #expect(Self.entries(audit["fixed"]) == Self.entries(oldFindings["findings"]))
        for line in try cli.read("defects.jsonl").split(separator: "\n") {
            let defect = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            let kind = defect["kind"] as! String, paths = defect["paths"] as! [String]
            let fixed = Self.entries(audit["fixed"]).contains { entry in
                entry[0] == kind && paths.contains { entry[1].hasPrefix($0) || $0.hasPrefix(entry[1]) }
            }
            #expect(fixed, "the generator's \(kind) at \(paths) is fixed")
        }
        let summary = audit["summary"] as! [String: Int]
        #expect(
            summary["new_errors"] == 1 && summary["new_warnings"] == 1
                && summary["fixed"] == (oldFindings["findings"] as! [Any]).count)

        // The text report starts and ends with the summary line.
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let fixed: Int = summary["fixed"]!
        let first = String(lines.first ?? ""), last = String(lines.dropLast().last ?? "")
        #expect(first.hasPrefix("+1 new error, +1 new warning, \(fixed) fixed; "), "\(first)")
        #expect(first == last)
        #expect(!first.contains("\u{2212}1 user"), "a user left and one came: the count did not move")
        #expect(first.contains("1 user added and 1 removed"), "\(first)")

        // Nothing new at or above warning in the other direction... but the repaired drift comes back as new.
        let back = try cli.run("diff", "new.json", "old.json", "--format", "json", "--output", "back.json")
        #expect(back.code == 1)
        let backAudit = try Self.report(cli, "back.json")["audit"] as! [String: Any]
        #expect(
            Self.entries(backAudit["new"]) == Self.entries(audit["fixed"])
                && Self.entries(backAudit["fixed"]) == Self.entries(audit["new"]))
        #expect(try cli.run("diff", "new.json", "old.json", "--fail-on", "never", "--format", "json").code == 0)
    }

    /// Declared copies: each layout of DeclaredFixtures against its drifted self. The new findings are exactly those
    /// `check` finds in the drifted export and not in the consistent one (by rule and first path), every drift's
    /// among them; the other way round they are the fixed ones; the declarations' rows show the edits.
    @Test func declaredLayoutsDriftedAndRepaired() throws {
        let cli = try CLI()
        for layout in DeclaredFixtures.all {
            let schema = try DeclaredFixtures.schema(layout, in: cli)
            try cli.write(try layout.export(), to: "\(layout.name).json")
            try cli.write(try DeclaredFixtures.drifted(layout), to: "\(layout.name)-drifted.json")
            var checked: [Set<[String]>] = []
            for name in [layout.name, "\(layout.name)-drifted"] {
                let result = try cli.run(
                    "check", "\(name).json", "--schema", schema, "--format", "json", "--fail-on", "never")
                checked.append(
                    Self.entries(
                        (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any])["findings"]
                    ))
            }
            let result = try cli.run(
                "diff", "\(layout.name).json", "\(layout.name)-drifted.json", "--schema", schema,
                "--format", "json", "--output", "\(layout.name).diff.json", "--fail-on", "never")
            #expect(result.code == 0, "\(layout.name): \(result.stderr)")
            let report = try Self.report(cli, "\(layout.name).diff.json")
            let audit = report["audit"] as! [String: Any]
            #expect(Self.entries(audit["new"]) == checked[1].subtracting(checked[0]), "\(layout.name)")
            #expect(Self.entries(audit["fixed"]) == checked[0].subtracting(checked[1]), "\(layout.name)")
            for drift in layout.drifts {
                #expect(Set(drift.findings).isSubset(of: Self.entries(audit["new"])), "\(layout.name): \(drift.name)")
            }
            let back = try cli.run(
                "diff", "\(layout.name)-drifted.json", "\(layout.name).json", "--schema", schema,
                "--format", "json", "--output", "\(layout.name).back.json")
            #expect(back.code == 0, "repairing finds nothing new: \(back.stderr)")
            let backAudit = try Self.report(cli, "\(layout.name).back.json")["audit"] as! [String: Any]
            #expect(
                Self.entries(backAudit["fixed"]) == Self.entries(audit["new"])
                    && Self.entries(backAudit["new"]) == Self.entries(audit["fixed"]))
        }
        // The declarations' rows: Chirp's stale counter and follower name are changed rows, the row that was never
        // written is a removed timeline entry with its copies.
        let chirp = Self.changes(try Self.report(cli, "chirp.diff.json"))
        #expect(chirp["tweet-count"]?["changed"] == ["users/uAda/tweetCount"])
        #expect(chirp["follower-count"]?["changed"] == ["followers/uBob/count"])
        #expect(chirp["follower-name"]?["changed"] == ["followers/uBob/list/-Nr0002bbbbbbbbbbbbb/name"])
        #expect(chirp["timeline"]?["removed"]?.contains("timeline/uCyd/-Nr0019bbbbbbbbbbbbb") == true)
        #expect(chirp["timeline-text"]?["removed"]?.contains("timeline/uCyd/-Nr0019bbbbbbbbbbbbb/text") == true)
        #expect(chirp["followers"]?["removed"] == ["followers/uCyd/list/-Nr0010bbbbbbbbbbbbb"])
        let entry = try #require(
            (try Self.report(cli, "chirp.diff.json")["data"] as! [[String: Any]])
                .first { $0["relation"] as? String == "tweet-count" }.flatMap {
                    ($0["changed"] as! [[String: Any]]).first
                })
        #expect(
            (entry["old"] as! [String: Any])["value"] as? Int == 2
                && (entry["new"] as! [String: Any])["value"] as? Int == 5)
    }

    /// Standard input for one export, gzip for the other, every format at once; bad input is one message, exit 2,
    /// and nothing written.
    @Test func inputsFormatsAndBadInput() throws {
        let cli = try CLI()
        let demo = CLI.repository.appendingPathComponent("Content/demo-export.json")
        let text = try String(contentsOf: demo, encoding: .utf8)
        try cli.write(text, to: "old.json")
        var tree = try JSONTree(text)
        let user = tree.keys("users")[0]
        tree["users/\(user)/username"] = "renamed"
        let compressed = try cli.temporary.run("gzip", "-c", input: Data(tree.text.utf8))
        try compressed.write(to: cli.url("new.json.gz"))

        var result = try cli.run(
            [
                "diff", "-", "new.json.gz", "--format", "markdown", "--output", "diff.md", "--format", "html",
                "--output", "diff.html", "--format", "json", "--output", "diff.json", "--format", "text",
                "--max-per-rule", "1", "--fail-on", "new-warning",
            ], stdin: Data(text.utf8))
        // The rename makes poster copies stale: new warnings.
        #expect(result.code == 1, "\(result.stderr)")
        let summary = try #require(result.stdout.split(separator: "\n").first.map(String.init))
        #expect(result.stderr.hasSuffix("wrote diff.md, diff.html, diff.json\n\(summary)\n"), "\(result.stderr)")
        #expect(
            summary.hasPrefix("+") && summary.contains("new warning") && summary.hasSuffix("; 1 user changed"),
            "\(summary)")
        let changed = Self.changes(try Self.report(cli, "diff.json"))["users"]!["changed"]!
        #expect(changed == ["users/\(user)"])
        #expect(try cli.read("diff.md").hasPrefix("# Diff\n\n**"))
        #expect(
            try cli.read("diff.html").contains("<h1>Diff</h1>") && cli.read("diff.html").contains("username <code>"))
        #expect(result.stdout.contains("more (-v or --max-per-rule all lists them)"), "--max-per-rule 1 caps the lists")
        result = try cli.run(["diff", "-", "new.json.gz", "-v"], stdin: Data(text.utf8))
        #expect(!result.stdout.contains("more (-v"), "-v lists everything")
        #expect(result.code == 0, "errors only by default; the new findings are warnings")

        // Bad input: one line on stderr, exit 2, no file.
        try cli.write("{\"users\": {", to: "truncated.json")
        let cases: [([String], String)] = [
            (
                ["diff", "-", "-"],
                "Error: OLD and NEW are both standard input (-); one of them must be a file or folder"
            ),
            // A format of check's that a diff is not written in is a usage error naming those it is, never text.
            (
                ["diff", "old.json", "new.json.gz", "--format", "sarif", "--output", "x.sarif"],
                "Error: --format sarif: a diff is written as text, json, markdown or html"
            ),
            (
                ["diff", "old.json", "new.json.gz", "--format", "junit"],
                "Error: --format junit: a diff is written as text, json, markdown or html"
            ),
            (
                ["diff", "old.json", "new.json.gz", "--format", "json", "--output", "x.json", "--format", "github"],
                "Error: --format github: a diff is written as text, json, markdown or html"
            ),
            (["diff", "old.json", "missing.json", "--format", "json", "--output", "x.json"], "missing.json"),
            (
                ["diff", "truncated.json", "old.json", "--format", "json", "--output", "x.json"],
                "Error: truncated.json: invalid JSON at line 1"
            ),
            (
                ["diff", "old.json", Self.parseFolder(cli), "--format", "json", "--output", "x.json"],
                "Error: old.json reads as the makestagram layout and parse as the parse layout; a diff compares two exports of one layout: give --schema NAME|FILE"
            ),
        ]
        for (arguments, message) in cases {
            let bad = try cli.run(arguments)
            #expect(bad.code == 2, "\(arguments): \(bad.stderr)")
            #expect(
                bad.stderr.split(separator: "\n").count == 1 && bad.stderr.contains(message),
                "\(arguments): \(bad.stderr)")
            #expect(bad.stdout.isEmpty && !cli.exists("x.json") && !cli.exists("x.sarif"), "\(arguments)")
        }
    }

    /// A Parse export folder in `cli`'s folder, for a pair of two layouts.
    static func parseFolder(_ cli: CLI) -> String {
        for (name, text) in Feed.sample.parseFiles { try? cli.write(text, to: "parse/\(name)") }
        return "parse"
    }
}
