import Foundation
import Testing

/// Baselines through the CLI: a written baseline silences its own findings, new ones still fail the run,
/// and entries no longer found are listed as fixed.
@Suite struct BaselineCLITests {
    @Test func aWrittenBaselineSilencesItsOwnFindings() throws {
        let cli = try CLI()
        var export = MiniExport.makestagram
        export.set("posts/alice/\(MiniExport.pa)/like_count", 5)
        export.set("following/bob/bob", true)
        export.set("followers/bob/bob", true)
        try cli.write(try export.text(), to: "export.json")

        let write = try cli.run(["check", "export.json", "--write-baseline", "baseline.json"])
        #expect(write.code == 0, "writing a baseline records, it does not judge")
        #expect(write.stdout.contains("like-count-mismatch"))
        let baseline =
            try JSONSerialization.jsonObject(with: Data(try cli.read("baseline.json").utf8)) as! [String: Any]
        #expect(baseline["version"] as? Int == 1)
        let entries = baseline["findings"] as! [[String: String]]
        #expect(
            entries == [
                ["path": "following/bob/bob", "rule": "follow-self"],
                ["path": "posts/alice/\(MiniExport.pa)/like_count", "rule": "like-count-mismatch"],
            ])

        let silenced = try cli.run(["check", "export.json", "--baseline", "baseline.json"])
        #expect(silenced.code == 0, "\(silenced.stdout)")
        #expect(silenced.stdout.contains("baseline: 2 findings hidden, 0 entries fixed"))

        // A new finding fails the run; the fixed one is listed.
        export.set("posts/alice/\(MiniExport.pa)/like_count", 1)
        export.set("posts/bob/\(MiniExport.pb)/like_count", 4)
        try cli.write(try export.text(), to: "export.json")
        let (code, findings, report) = try cli.jsonReport("export.json", ["--baseline", "baseline.json"])
        #expect(code == 1)
        #expect(findings.map { ($0["paths"] as! [String])[0] } == ["posts/bob/\(MiniExport.pb)/like_count"])
        let summary = (report["summary"] as! [String: Any])["baseline"] as! [String: Any]
        #expect(summary["hidden"] as? Int == 1)
        #expect(
            summary["fixed"] as? [[String: String]] == [
                ["path": "posts/alice/\(MiniExport.pa)/like_count", "rule": "like-count-mismatch"]
            ])
    }

    @Test func unusableBaselinesAreUsageErrors() throws {
        let cli = try CLI()
        let demo = CLI.repository.appendingPathComponent("Content/demo-export.json").path
        let missing = try cli.run(["check", demo, "--baseline", "nope.json", "--output", "r.txt"])
        #expect(missing.code == 2 && missing.stderr.contains("cannot read baseline nope.json"))
        try cli.write("{\"version\": 1}", to: "bad.json")
        let bad = try cli.run(["check", demo, "--baseline", "bad.json", "--output", "r.txt"])
        #expect(bad.code == 2 && bad.stderr.contains("bad.json: not a fanout baseline"))
        #expect(!cli.exists("r.txt"), "nothing written")
    }
}
