import Foundation
import Testing

/// Every output a user gets from the CLI — the site, the snapshot, the repair, every report format and what the
/// commands print — on the demo export and on a generated one, compared byte for byte with the files kept in
/// `Tests/FanoutCLITests/Golden/`. A change that alters any output shows up here as a diff.
///
/// When an output changes on purpose, write the new golden files and review them with `git diff`:
/// `FANOUT_UPDATE_GOLDEN=1 swift test --filter GoldenOutputTests`.
@Suite struct GoldenOutputTests {
    static let golden = CLI.repository.appendingPathComponent("Tests/FanoutCLITests/Golden")
    static let updating = ProcessInfo.processInfo.environment["FANOUT_UPDATE_GOLDEN"] == "1"

    /// The demo export: every file kept as it is, so that a change reads as a diff of the page.
    @Test func demoExportOutputsAreUnchanged() throws {
        let cli = try CLI()
        try FileManager.default.copyItem(
            at: CLI.repository.appendingPathComponent("Content"), to: cli.url("Content"))
        try FileManager.default.copyItem(at: cli.url("Content/demo-export.json"), to: cli.url("demo-export.json"))
        let transcript = try Self.runAll(cli, export: "demo-export.json", build: ["--content", "Content"])
        try Self.compare(cli, transcript: transcript, name: "demo", digestOnly: false)
    }

    /// A generated export with drift of every kind, paginated and with a base URL: kept as one 64-bit FNV-1a hash per file,
    /// since the site has hundreds of pages.
    @Test func generatedExportOutputsAreUnchanged() throws {
        let cli = try CLI()
        let generate = try cli.run(
            "generate", "--users", "25", "--seed", "7", "--defects", "15", "--out", "generated.json")
        #expect(generate.code == 0, "\(generate.stderr)")
        let transcript = try Self.runAll(
            cli, export: "generated.json", build: ["--per-page", "4", "--base-url", "https://feeds.example.com/"])
        try Self.compare(cli, transcript: transcript, name: "generated", digestOnly: true)
    }

    /// Runs build, check in every format, report, and export with repair into `out/`; returns what each command
    /// printed.
    static func runAll(_ cli: CLI, export: String, build: [String]) throws -> String {
        var transcript = ""
        func record(_ args: [String]) throws {
            let result = try cli.run(args)
            transcript += "$ fanout \(args.joined(separator: " "))\nexit \(result.code)\n"
            transcript += "--- stdout\n\(result.stdout)--- stderr\n\(result.stderr)\n"
        }
        try record(["build", export, "--out", "out/site"] + build)
        for format in ["text", "json", "markdown", "html", "junit", "sarif", "github", "gitlab"] {
            try record([
                "check", export, "--format", format, "--output", "out/reports/report.\(format)", "--fail-on", "never",
            ])
        }
        try record(["check", export])
        // The JSON report rendered again: the text `check` printed above (ReportCommandTests compares every format).
        try record(["report", "out/reports/report.json"])
        try record(["check", export, "--format", "github", "--rule", "push-id-time=error", "--fail-on", "warning"])
        try record(["export", export, "--out", "out/export", "--repair"])
        // `fanout diff` of the export and its repair, in every format it writes, and `fanout history` of runs on
        // both (their times fixed, so that the pages are the same every time).
        let repaired = "out/export/repaired.json"
        for format in ["text", "json", "markdown", "html"] {
            try record([
                "diff", export, repaired, "--format", format, "--output", "out/reports/diff.\(format)",
                "--max-per-rule", "2", "--fail-on", "never",
            ])
        }
        for file in [export, repaired, export, export] {
            #expect(try cli.run(["check", file, "--history", "history.ndjson", "-q", "--fail-on", "never"]).code == 0)
        }
        let runs = try cli.read("history.ndjson").split(separator: "\n").enumerated().map { n, line in
            line.replacing(/"time":"[^"]*"/, with: "\"time\":\"2026-11-0\(n + 1)T02:00:00Z\"")
        }
        try cli.write(runs.joined(separator: "\n") + "\n", to: "history.ndjson")
        for format in ["text", "html"] {
            try record(["history", "history.ndjson", "--format", format, "--output", "out/reports/history.\(format)"])
        }
        return transcript
    }

    static func compare(_ cli: CLI, transcript: String, name: String, digestOnly: Bool) throws {
        var files: [String: Data] = ["transcript.txt": Data(transcript.utf8)]
        // The site's cache (docs/site.md "Rebuilds, progress and timings"): the card store holds cards by keys that
        // hash the executable's identity, in binary, and what it holds shows in the pages; the record of the folder
        // it describes names its inode. Its manifest is kept.
        let cache = ".fanout-cache/site/"
        for path in cli.files(under: "out") where !path.hasPrefix(cache + "cards/") && path != cache + "output" {
            files[path] = try Data(contentsOf: cli.url("out/\(path)"))
        }
        // A page's input key hashes the executable's identity too, so that a new Fanout renders every page once
        // (docs/site.md "Rebuilds, progress and timings"): the manifest's content hashes are kept, its keys masked.
        let manifestPath = cache + "manifest"
        if let manifest = files[manifestPath] {
            let lines = String(decoding: manifest, as: UTF8.self).split(
                separator: "\n", omittingEmptySubsequences: false)
            files[manifestPath] = Data(
                lines.map { line in
                    line.count > 17 && line.dropFirst(16).first == " " ? "key " + line.dropFirst(17) : line
                }.joined(separator: "\n").utf8)
        }
        let folder = golden.appendingPathComponent(name)
        if digestOnly {
            let digest = files.keys.sorted().map { "\(Self.fnv1a(files[$0]!))  \($0)\n" }.joined()
            files = ["transcript.txt": files["transcript.txt"]!, "files.fnv1a": Data(digest.utf8)]
        }
        if updating {
            try? FileManager.default.removeItem(at: folder)
            for (path, data) in files {
                let url = folder.appendingPathComponent(path)
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try data.write(to: url)
            }
            return
        }
        let kept = Set(
            FileManager.default.enumerator(atPath: folder.path)?.compactMap { item -> String? in
                guard let path = item as? String else { return nil }
                var isDirectory: ObjCBool = false
                FileManager.default.fileExists(
                    atPath: folder.appendingPathComponent(path).path, isDirectory: &isDirectory)
                return isDirectory.boolValue ? nil : path
            } ?? [])
        #expect(kept == Set(files.keys), "the same files as Golden/\(name) (FANOUT_UPDATE_GOLDEN=1 rewrites it)")
        for (path, data) in files.sorted(by: { $0.key < $1.key }) where kept.contains(path) {
            let expected = try Data(contentsOf: folder.appendingPathComponent(path))
            #expect(data == expected, "Golden/\(name)/\(path) differs:\n\(Self.firstDifference(expected, data))")
        }
    }

    /// FNV-1a, 64 bits, in hex: enough to notice a changed file (this is no defence against forgery).
    static func fnv1a(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The first differing line of two texts, for the failure message.
    static func firstDifference(_ expected: Data, _ actual: Data) -> String {
        let a = String(decoding: expected, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let b = String(decoding: actual, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        for i in 0..<max(a.count, b.count) where i >= a.count || i >= b.count || a[i] != b[i] {
            return
                "line \(i + 1)\n- \(i < a.count ? String(a[i].prefix(300)) : "")\n+ \(i < b.count ? String(b[i].prefix(300)) : "")"
        }
        return "(same lines)"
    }
}
