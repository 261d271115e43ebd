import FanoutTestSupport
import Foundation
import Testing

/// `fanout export --repair` on generated exports with drift: the patch repairs every mechanical finding,
/// whether applied by Fanout while streaming or independently with Firebase's PATCH semantics, and the truth
/// (timelines and like counts derived from the sources) does not change.
@Suite struct RepairCLITests {
    struct Drift: Sendable, CustomTestStringConvertible {
        let users: Int
        let seed: UInt64
        let defects: Int
        var testDescription: String { "\(users) users, seed \(seed), \(defects) defects" }
    }

    static let drifts = [
        Drift(users: 100, seed: 21, defects: 15), Drift(users: 250, seed: 22, defects: 40),
        Drift(users: 400, seed: 23, defects: 60), Drift(users: 180, seed: 24, defects: 30),
    ]

    /// Drift the generator does not make, none of which changes the truth: follows of deleted users (both
    /// sides), self-follows, `followers` entries nobody wrote in `following`, timelines of deleted users,
    /// poster uid copies naming someone else, and a like stored twice under one key.
    static func moreDrift(_ text: String, seed: UInt64) throws -> String {
        var root = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
        var random = SeededGenerator(seed: seed)
        let uids = (root["users"] as! [String: Any]).keys.sorted()
        func pick() -> String { uids[Int(random.next() % UInt64(uids.count))] }
        var following = root["following"] as! [String: [String: Any]]
        var followers = root["followers"] as! [String: [String: Any]]
        var timeline = root["timeline"] as! [String: [String: Any]]
        var posts = root["posts"] as! [String: [String: [String: Any]]]
        for i in 0..<3 {
            let a = pick(), b = pick()
            following[a, default: [:]]["ghost\(i)"] = true
            followers["ghost\(i)", default: [:]][a] = true
            following[b, default: [:]][b] = true
            followers[b, default: [:]][b] = true
            followers[pick(), default: [:]]["ghost\(i + 10)"] = true
            timeline["ghost\(i)"] = ["-KgoneGoneGoneGone0\(i)": ["poster_uid": a]]
        }
        for owner in posts.keys.sorted().prefix(2) {
            let key = posts[owner]!.keys.sorted().first!
            var post = posts[owner]![key]!
            var poster = post["poster"] as! [String: Any]
            poster["uid"] = uids.first { $0 != owner }!
            post["poster"] = poster
            posts[owner]![key] = post
        }
        root["following"] = following
        root["followers"] = followers
        root["timeline"] = timeline
        root["posts"] = posts
        var postLikes = root["postLikes"] as! [String: [String: Any]]
        let liked = postLikes.keys.sorted().first!
        let liker = postLikes[liked]!.keys.sorted().first!
        postLikes[liked]![liker] = "<repeat>"
        root["postLikes"] = postLikes
        return try MiniExport(tree: root).text()
    }

    @Test(arguments: drifts)
    func theRepairPatchLeavesNoMechanicalFindingAndKeepsTheTruth(_ drift: Drift) throws {
        let cli = try CLI()
        let generated = try cli.run([
            "generate", "--users", "\(drift.users)", "--seed", "\(drift.seed)",
            "--defects", "\(drift.defects)", "--out", "generated.json", "--manifest", "defects.jsonl",
        ])
        #expect(generated.code == 0, "\(generated.stderr)")
        try cli.write(try Self.moreDrift(try cli.read("generated.json"), seed: drift.seed), to: "drift.json")
        let truth = try DerivedDataOracle(exportAt: cli.url("drift.json"))

        // Every injected defect is reported under its rule with its path.
        let (code, before, _) = try cli.jsonReport("drift.json")
        #expect(code == 1)
        for line in try cli.read("defects.jsonl").split(separator: "\n") {
            let defect = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            let kind = defect["kind"] as! String, paths = defect["paths"] as! [String]
            #expect(
                before.contains { finding in
                    finding["rule"] as? String == kind
                        && (finding["paths"] as! [String]).contains { p in
                            paths.contains { p.hasPrefix($0) || $0.hasPrefix(p) }
                        }
                }, "\(kind) at \(paths)")
        }
        for rule in [
            "follow-unknown-user", "follow-self", "follow-mirror-missing", "poster-copy-uid", "like-duplicate",
        ] {
            #expect(before.contains { $0["rule"] as? String == rule }, "the extra drift shows as \(rule)")
        }

        let repair = try cli.run(["export", "drift.json", "--out", "out", "--repair"])
        #expect(repair.code == 0, "\(repair.stderr)")
        let patchText = try cli.read("out/repair.patch.json")
        let patch = try JSONSerialization.jsonObject(with: Data(patchText.utf8)) as! [String: Any]
        #expect(!patch.isEmpty)
        let paths = patch.keys.sorted()
        for (a, b) in zip(paths, paths.dropFirst()) {
            #expect(!b.hasPrefix(a + "/"), "\(a) is an ancestor of \(b): Firebase rejects such an update")
        }

        // Applied by Fanout.
        let (repairedCode, after, _) = try cli.jsonReport("out/repaired.json")
        #expect(repairedCode == 0 && after.isEmpty, "\(after.prefix(5))")
        // Applied independently, as a REST PATCH on the root would.
        let exported = try JSONSerialization.jsonObject(with: Data(try cli.read("drift.json").utf8)) as! [String: Any]
        let patched = FirebasePatch.apply(patch, to: exported)
        try cli.write(
            String(decoding: try JSONSerialization.data(withJSONObject: patched), as: UTF8.self), to: "patched.json")
        let (patchedCode, afterPatch, _) = try cli.jsonReport("patched.json")
        #expect(patchedCode == 0 && afterPatch.isEmpty, "\(afterPatch.prefix(5))")
        let streamed =
            try JSONSerialization.jsonObject(with: Data(try cli.read("out/repaired.json").utf8)) as! NSDictionary
        #expect(streamed == patched as NSDictionary, "the streaming applier and PATCH semantics agree")

        // The truth does not change: the repaired export derives what the original's sources say.
        #expect(try cli.run(["export", "out/repaired.json", "--out", "again"]).code == 0)
        let snapshot =
            try JSONSerialization.jsonObject(with: Data(try cli.read("again/snapshot.json").utf8)) as! [String: Any]
        #expect(snapshot["timelines"] as? [String: [String]] == truth.timelines)
        let counts = (snapshot["posts"] as! [String: [String: Any]]).mapValues { $0["like_count"] as! Int }
        #expect(counts == truth.likeCounts)
        // Timelines, counts and likers are those of the original export (user follow counts are not: they
        // counted the follows of deleted users and self-follows that the repair deletes).
        let original =
            try JSONSerialization.jsonObject(with: Data(try cli.read("out/snapshot.json").utf8)) as! [String: Any]
        #expect(snapshot["timelines"] as? NSDictionary == original["timelines"] as? NSDictionary)
        #expect(snapshot["posts"] as? NSDictionary == original["posts"] as? NSDictionary)
        // And a second repair finds nothing left to do.
        #expect(try cli.run(["export", "out/repaired.json", "--out", "twice", "--repair"]).code == 0)
        #expect(try cli.read("twice/repair.patch.json") == "{}\n")
    }

    @Test func repairReadsStandardInputOnce() throws {
        let cli = try CLI()
        let demo = try Data(contentsOf: CLI.repository.appendingPathComponent("Content/demo-export.json"))
        let fromFile = try cli.run([
            "export", CLI.repository.appendingPathComponent("Content/demo-export.json").path,
            "--out", "file", "--repair",
        ])
        let fromStdin = try cli.run(["export", "-", "--out", "stdin", "--repair"], stdin: demo)
        #expect(fromFile.code == 0 && fromStdin.code == 0, "\(fromStdin.stderr)")
        for name in ["repair.patch.json", "repaired.json", "snapshot.json"] {
            #expect(try cli.read("stdin/\(name)") == cli.read("file/\(name)"), "\(name)")
        }
        #expect(
            try cli.read("file/repair.patch.json").contains(
                "\"timeline/uidErin0000000000000000000/-Kg5ca7sx8kQ9zPq2Lm7\""))
        let bad = try cli.run(["export", "-", "--out", "bad", "--repair"], stdin: Data("{\"users\": [1,}".utf8))
        #expect(bad.code == 2 && bad.stderr.contains("standard input: invalid JSON"), "\(bad.stderr)")
        #expect(!cli.exists("bad"))
    }

    @Test func withoutRepairOnlyTheSnapshotIsWritten() throws {
        let cli = try CLI()
        let demo = CLI.repository.appendingPathComponent("Content/demo-export.json").path
        #expect(try cli.run(["export", demo, "--out", "out"]).code == 0)
        #expect(cli.files(under: "out") == ["snapshot.json"])
        #expect(try cli.run(["export", demo, "--out", "out", "--repair"]).code == 0)
        #expect(cli.files(under: "out") == ["repair.patch.json", "repaired.json", "snapshot.json"])
    }
}
