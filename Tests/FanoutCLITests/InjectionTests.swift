import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Data from an export never becomes markup, script, a workflow command or a terminal control sequence, in any
/// output format. The classic vectors are placed in every field: user keys, usernames, poster copies, post keys,
/// captions and image URLs; the export drifts so that findings quote them.
@Suite struct InjectionTests {
    /// What must never appear in HTML or XML output: an element from the data, or a `javascript:` link. (Escaped
    /// text such as `&lt;img src=x onerror=alert(7)&gt;` is harmless and expected; pages may draw their own `<svg>`.)
    static let markup = ["<script", "<svg onload", "<iframe", "<img", "href=\"javascript:", "src=\"javascript:"]

    static let evilUID = "<img src=x onerror=alert(7)>"
    static let evilPost = "-Kfm1DtVx0kQ9zPq2Lm7\\\"><svg onload=alert(9)>"

    /// Usernames carry line breaks followed by workflow commands, and a terminal escape sequence.
    static let export = """
        {"users": {"\(evilUID)": {"username": "<script>alert(1)</script>\\n::error::injected%0A\\u001b]0;pwned\\u0007"},
                   "u2": {"username": "\\"><svg onload=alert(2)>\\r\\n::warning file=x::injected"}},
         "posts": {"\(evilUID)": {
            "-Kfm1DtVx0kQ9zPq2Lm7": {"created_at": 1490119356, "image_height": 1, "image_url": "javascript:alert(3)",
              "like_count": 5, "poster": {"uid": "u2", "username": "<iframe src=javascript:alert(8)>"},
              "caption": "<iframe src=x></iframe> <img src=x onerror=alert(4)> [click](javascript:alert(5)) <script>alert(6)</script>"},
            "\(evilPost)": {"created_at": 1490119357, "image_height": 1, "image_url": "\\"><svg onload=alert(10)>",
              "like_count": 0, "poster": {"uid": "\(evilUID)", "username": "x"}, "caption": "ok"}}},
         "postLikes": {"-Kfm1DtVx0kQ9zPq2Lm7": {"u2": true}},
         "following": {"u2": {"\(evilUID)": true}}, "followers": {},
         "timeline": {"u2": {"-Kfm1DtVx0kQ9zPq2Lm7": {"poster_uid": "<script>alert(11)</script>"}}}}
        """

    static func prepared() throws -> CLI {
        let cli = try CLI()
        try cli.write(export, to: "evil.json")
        return cli
    }

    /// `markdown` without its code spans, which show text literally (CommonMark renders `<` in them as `&lt;`).
    static func outsideCodeSpans(_ markdown: String) throws -> String {
        let spans = try NSRegularExpression(pattern: "(`+).*?\\1")
        let range = NSRange(markdown.startIndex..., in: markdown)
        return spans.stringByReplacingMatches(in: markdown, range: range, withTemplate: "")
    }

    /// Raw HTML or a `javascript:` link in Markdown text, outside code spans; a backslash-escaped `\<` or `\]`
    /// is literal text in CommonMark, so it does not count.
    static func expectNoMarkdownMarkup(
        _ markdown: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let prose = try outsideCodeSpans(markdown)
        let markup = try NSRegularExpression(pattern: #"(?<!\\)<(script|svg|iframe|img)|(?<!\\)\]\(javascript:"#)
        let match = markup.firstMatch(in: prose, range: NSRange(prose.startIndex..., in: prose))
        #expect(
            match == nil, "\(name): \(match.flatMap { Range($0.range, in: prose) }.map { prose[$0] } ?? "")",
            sourceLocation: sourceLocation)
    }

    static func expectNoMarkup(_ text: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for vector in markup {
            #expect(!text.contains(vector), "\(name) contains \(vector)", sourceLocation: sourceLocation)
        }
    }

    @Test func reportsInEveryFormat() throws {
        let cli = try Self.prepared()
        let formats = ["text", "json", "markdown", "html", "junit", "sarif", "github"]
        var args = ["check", "evil.json"]
        for format in formats { args += ["--format", format, "--output", "report.\(format)"] }
        let run = try cli.run(args)
        #expect(run.code == 1, "\(run.stderr)")

        let text = try cli.read("report.text")
        #expect(text.contains("like-count-mismatch"), "the vectors are quoted by findings: \(text)")
        #expect(
            !text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7F }, "no control characters"
        )
        #expect(!text.split(separator: "\n").contains { $0.hasPrefix("::") }, "no workflow command at a line start")

        for name in ["report.json", "report.sarif"] {
            let data = try Data(contentsOf: cli.url(name))
            #expect((try? JSONSerialization.jsonObject(with: data)) != nil, "\(name) is valid JSON")
        }
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: cli.url("report.json"))) as? [String: Any]
        let messages = (json?["findings"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        #expect(
            messages.contains { $0.contains("<script>alert(1)</script>\n::error::injected") }, "JSON keeps data exact")

        let junit = try Data(contentsOf: cli.url("report.junit"))
        #expect(XMLParser(data: junit).parse(), "JUnit is well-formed XML")
        Self.expectNoMarkup(String(decoding: junit, as: UTF8.self), "JUnit")

        let github = try cli.read("report.github")
        let lines = github.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(!lines.isEmpty && !github.contains("\r"))
        for line in lines {
            #expect(
                line.hasPrefix("::error title=") || line.hasPrefix("::warning title=")
                    || line.hasPrefix("::notice title="),
                "every line is one of Fanout's commands: \(line)")
            // The command's properties end at the first `::`; data from the export never contains one unescaped there.
            let properties = line.dropFirst(2).prefix { $0 != ":" }
            #expect(!properties.contains("%0A"), "\(line)")
        }
        #expect(github.contains("%0A::error::injected%250A"), "line breaks and % in data are escaped: \(github)")
        #expect(
            !github.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7F },
            "no control characters reach the log raw")
        #expect(github.contains(#"\u{1b}]0;pwned\u{7}"#), "they are spelled out: \(github)")

        let html = try cli.read("report.html")
        Self.expectNoMarkup(html, "HTML report")
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        try Self.expectNoMarkdownMarkup(try cli.read("report.markdown"), "Markdown report")
    }

    @Test func sitePagesAndFeeds() throws {
        let cli = try Self.prepared()
        let build = try cli.run("build", "evil.json", "--out", "site")
        #expect(build.code == 0, "\(build.stderr)")
        let files = cli.files(under: "site")
        let pages = files.filter { $0.hasSuffix(".html") }
        #expect(pages.count >= 7)
        for page in pages { Self.expectNoMarkup(SearchScriptTag.removed(from: try cli.read("site/\(page)")), page) }
        for twin in files.filter({ $0.hasSuffix(".md") }) {
            try Self.expectNoMarkdownMarkup(try cli.read("site/\(twin)"), twin)
        }
        for feed in files.filter({ $0.hasSuffix(".xml") }) {
            let data = try Data(contentsOf: cli.url("site/\(feed)"))
            #expect(XMLParser(data: data).parse(), "\(feed) is well-formed XML")
            Self.expectNoMarkup(String(decoding: data, as: UTF8.self), feed)
        }
        // Keys become file names only through the safe-name function: nothing outside the site, no odd names.
        #expect(files.allSatisfy { !$0.contains("<") && !$0.contains("\"") && !$0.contains("..") }, "\(files)")
    }
}
