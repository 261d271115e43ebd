import FanoutTestSupport
import Foundation
import Testing

/// Hostile and broken exports through the command line: each gets a defined outcome, never a crash.
///
/// "Defined" means: exit 2 with one `Error: FILE: …` line naming what is wrong and nothing on stdout, or a normal
/// run (exit 0 or 1) whose report shows how the odd value was read.
@Suite struct RobustnessCLITests {
    static let post = "-Kfm1DtVx0kQ9zPq2Lm7"

    /// A one-post Makestagram export with `caption` (raw JSON) as the post's caption value.
    static func export(caption: String = "\"hi\"", likeCount: String = "0", username: String = "\"alice\"") -> String {
        """
        {"users": {"u1": {"username": \(username)}},
         "posts": {"u1": {"\(post)": {"created_at": 1490119356, "image_url": "https://example.com/a.jpg", "image_height": 1,
            "like_count": \(likeCount), "poster": {"uid": "u1", "username": "alice"}, "caption": \(caption)}}},
         "timeline": {"u1": {"\(post)": {"poster_uid": "u1"}}}}
        """
    }

    /// Asserts one clear input error: exit 2, one line on stderr starting `Error: FILE: ` and containing `text`.
    static func expectInputError(
        _ result: CLI.Result, file: String, _ text: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.code == 2, "exit \(result.code): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix("Error: \(file): "), "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(text), "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(
            result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)",
            sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
    }

    static let depth = 100_000

    @Test func deepNestingAtTheTopLevel() throws {
        let cli = try CLI()
        // Balanced: valid JSON, but an array is not an export.
        try cli.write(
            String(repeating: "[", count: Self.depth) + String(repeating: "]", count: Self.depth), to: "arrays.json")
        Self.expectInputError(try cli.run("check", "arrays.json"), file: "arrays.json", "not a Firebase export")
        // Objects: the first key decides nothing, so the detector names the keys it found.
        let objects = String(repeating: "{\"a\":", count: Self.depth) + "1" + String(repeating: "}", count: Self.depth)
        try cli.write(objects, to: "objects.json")
        Self.expectInputError(try cli.run("check", "objects.json"), file: "objects.json", "\"a\"")
        // Unbalanced: the error is at the end, where a bracket is missing.
        try cli.write(String(repeating: "[", count: Self.depth), to: "open.json")
        Self.expectInputError(
            try cli.run("check", "open.json"), file: "open.json", "invalid JSON at line 1, column \(Self.depth + 1)")
    }

    @Test func deepNestingInsideAnExport() throws {
        let cli = try CLI()
        // A caption that is 100,000 nested arrays: read past as a value of the wrong type.
        let deep = String(repeating: "[", count: Self.depth) + String(repeating: "]", count: Self.depth)
        try cli.write(Self.export(caption: deep), to: "caption.json")
        let caption = try cli.run("check", "caption.json")
        #expect(caption.code == 1, "\(caption.stderr)")
        #expect(caption.stdout.contains("caption is a array, expected a string"), "\(caption.stdout)")
        // The same nesting under `posts/u1/…`, where the schema expects post objects: not a crash, a report.
        let posts =
            "{\"users\": {\"u1\": {\"username\": \"a\"}}, \"posts\": {\"u1\": "
            + String(repeating: "{\"p\":", count: Self.depth) + "1" + String(repeating: "}", count: Self.depth) + "}}"
        try cli.write(posts, to: "posts.json")
        let nested = try cli.run("check", "posts.json", "--schema", "makestagram")
        #expect(nested.code == 0 || nested.code == 1, "\(nested.stderr)")
        #expect(nested.stdout.contains("posts/u1/p/created_at is missing"), "\(nested.stdout)")
        // Unterminated nesting inside posts: the syntax error is found and reported.
        try cli.write("{\"posts\": {\"u1\": " + String(repeating: "{\"p\":", count: Self.depth), to: "cut.json")
        Self.expectInputError(try cli.run("check", "cut.json"), file: "cut.json", "invalid JSON at line 1, column ")
    }

    @Test func invalidUTF8InAKeyAndInAValue() throws {
        let cli = try CLI()
        var key = Data("{\"users\": {\"u".utf8)
        key.append(contentsOf: [0xC3, 0x28])  // a lead byte followed by ASCII: not UTF-8
        key.append(Data("\": {\"username\": \"a\"}}}".utf8))
        try key.write(to: cli.url("key.json"))
        Self.expectInputError(
            try cli.run("check", "key.json"), file: "key.json", "invalid JSON at line 1, column 14: invalid UTF-8")
        var value = Data("{\"users\": {\"u1\": {\"username\": \"a".utf8)
        value.append(contentsOf: [0xFF])
        value.append(Data("\"}}}".utf8))
        try value.write(to: cli.url("value.json"))
        Self.expectInputError(
            try cli.run("check", "value.json"), file: "value.json", "invalid JSON at line 1, column 33: invalid UTF-8")
        #expect(cli.files(under: ".") == ["key.json", "value.json"])
    }

    @Test func loneSurrogatesReadAsReplacementCharacters() throws {
        let cli = try CLI()
        try cli.write(Self.export(username: #""al\uD800ice\uDC00""#), to: "lone.json")
        let export = try cli.run("export", "lone.json", "--out", "snap")
        #expect(export.code == 0, "\(export.stderr)")
        let snapshot = try cli.read("snap/snapshot.json")
        #expect(snapshot.contains("\"username\": \"al\u{FFFD}ice\u{FFFD}\""), "\(snapshot)")
        // A valid pair still decodes to its scalar.
        try cli.write(Self.export(username: #""\uD83D\uDE00""#), to: "pair.json")
        #expect(try cli.run("export", "pair.json", "--out", "snap2").code == 0)
        #expect(try cli.read("snap2/snapshot.json").contains("\"username\": \"😀\""))
    }

    @Test func hugeNumbers() throws {
        let cli = try CLI()
        // 1e999 overflows a Double and a 400-digit integer is no Int64: neither is a usable counter, so the
        // post-field rule reports the value instead of comparing it; the run completes.
        for (name, literal) in [("inf.json", "1e999"), ("big.json", "1" + String(repeating: "0", count: 399))] {
            try cli.write(Self.export(likeCount: literal), to: name)
            let report = try cli.jsonReport(name)
            #expect(report.code == 1, "\(name)")
            let finding = report.findings.first { $0["rule"] as? String == "post-field" }
            #expect((finding?["paths"] as? [String])?.first == "posts/u1/\(Self.post)/like_count", "\(report.findings)")
            #expect(finding?["actual"] as? String == "malformed number", "\(name)")
            let text = try cli.run("check", name)
            #expect(text.code == 1 && text.stdout.contains("like_count is a malformed number"), "\(text.stdout)")
        }
    }

    @Test func duplicateKeysAreReadNotRejected() throws {
        let cli = try CLI()
        // JSON leaves duplicate names to the reader; Fanout reads every member in order, as a stream.
        let text = """
            {"users": {"u1": {"username": "first"}, "u1": {"username": "second"}},
             "postLikes": {"\(Self.post)": {"u1": true, "u1": true}},
             "posts": {"u1": {"\(Self.post)": {"created_at": 1490119356, "image_url": "https://example.com/a.jpg",
                "image_height": 1, "like_count": 1, "poster": {"uid": "u1", "username": "second"}, "caption": "x"}}}}
            """
        try cli.write(text, to: "dup.json")
        let result = try cli.run("export", "dup.json", "--out", "snap")
        #expect(result.code == 0, "\(result.stderr)")
        let snapshot = try cli.read("snap/snapshot.json")
        #expect(snapshot.contains("\"like_count\": 1"), "a like repeated counts once: \(snapshot)")
        #expect(snapshot.contains("\"username\": \"second\""), "the last of equal keys wins: \(snapshot)")
        let check = try cli.run("check", "dup.json")
        #expect(check.stdout.contains("like-duplicate"), "and the repeated like is reported: \(check.stdout)")
    }

    @Test func byteOrderMarkIsSkipped() throws {
        let cli = try CLI()
        var data = Data([0xEF, 0xBB, 0xBF])
        data.append(Data(Self.export().utf8))
        try data.write(to: cli.url("bom.json"))
        let result = try cli.run("check", "bom.json")
        #expect(result.code == 0, "\(result.stderr)")
        // A BOM anywhere else is an error with its position.
        var late = Data("{\"users\": ".utf8)
        late.append(contentsOf: [0xEF, 0xBB, 0xBF])
        late.append(Data("{}}".utf8))
        try late.write(to: cli.url("late.json"))
        Self.expectInputError(try cli.run("check", "late.json"), file: "late.json", "invalid JSON at line 1, column 11")
    }

    @Test func emptyAndTruncatedFiles() throws {
        let cli = try CLI()
        try Data().write(to: cli.url("empty.json"))
        Self.expectInputError(
            try cli.run("check", "empty.json"), file: "empty.json", "invalid JSON at line 1, column 1: ")
        Self.expectInputError(
            try cli.run(["check", "-"], stdin: Data()), file: "standard input", "invalid JSON at line 1, column 1: ")

        let demo = try Data(contentsOf: CLI.repository.appendingPathComponent("Content/demo-export.json"))
        try demo.prefix(demo.count / 2).write(to: cli.url("half.json"))
        for args in [
            ["check", "half.json"], ["build", "half.json", "--out", "site"], ["export", "half.json", "--out", "snap"],
        ] {
            Self.expectInputError(try cli.run(args), file: "half.json", "invalid JSON at line ")
        }
        #expect(cli.files(under: ".") == ["empty.json", "half.json"], "nothing written")
    }

    @Test func truncatedGzip() throws {
        let cli = try CLI()
        let demo = CLI.repository.appendingPathComponent("Content/demo-export.json")
        let full = try runTool("gzip", ["-c", demo.path]).stdoutData
        try full.write(to: cli.url("full.json.gz"))
        #expect(try cli.run("check", "full.json.gz", "--fail-on", "never").code == 0)
        try full.prefix(full.count / 2).write(to: cli.url("half.json.gz"))
        // Decompression fails before any JSON is read, so the message is the one of an unreadable file.
        let half = try cli.run("check", "half.json.gz")
        #expect(half.code == 2 && half.stdout.isEmpty)
        #expect(
            half.stderr
                == "Error: cannot read half.json.gz: truncated gzip data: the file ends inside the compressed stream\n")
        // Only the header: nothing to decompress.
        try full.prefix(12).write(to: cli.url("header.json.gz"))
        let header = try cli.run("check", "header.json.gz")
        #expect(header.code == 2 && header.stderr.hasPrefix("Error: cannot read header.json.gz: "), "\(header.stderr)")
    }

    /// A gzip trailer claims the size of the data; a damaged or hostile one claiming 4 GiB must not make Fanout
    /// reserve that much (it crashed where memory is limited, as on many CI runners).
    @Test func aGzipTrailerClaimingGigabytesIsAnErrorUnderAMemoryLimit() throws {
        let cli = try CLI()
        var bytes: [UInt8] = [0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 0x03]
        bytes += Array("garbagegarbage".utf8) + [0xFF, 0xFF, 0xFF, 0xFF]
        try Data(bytes).write(to: cli.url("claims.json.gz"))
        let run = try runProcess(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "ulimit -v 1500000 && exec \"$0\" check claims.json.gz 2>&1", CLI.binary.path], in: cli.folder)
        let text = run.stdout
        #expect(run.code == 2, "\(text)")
        #expect(text.hasPrefix("Error: cannot read claims.json.gz: corrupt gzip data"), "\(text)")
    }
}
