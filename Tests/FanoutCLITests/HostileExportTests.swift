import Foundation
import Testing

/// A site and reports built from `Tests/Fixtures/hostile-export.json`, whose usernames, keys and captions hold
/// control characters (NUL, ESC, DEL, C1), noncharacters (U+FFFF, U+FDD0, U+1FFFE), raw HTML, `javascript:` links,
/// an unclosed code fence and words too long for a phone. `make test` also runs the Nu validator and axe-core on
/// what this export builds.
@Suite struct HostileExportTests {
    static let export = CLI.repository.appendingPathComponent("Tests/Fixtures/hostile-export.json").path

    /// Every HTML and Markdown output, the site's and `check`'s, spells out the characters HTML forbids instead of
    /// holding them, so no validator stops at them and no ESC reaches a terminal.
    @Test func noHTMLOrMarkdownOutputHoldsAForbiddenCharacter() throws {
        let cli = try CLI()
        let build = try cli.run("build", Self.export, "--out", "site", "--per-page", "2")
        #expect(build.code == 0, "\(build.stderr)")
        let check = try cli.run(
            "check", Self.export, "--format", "html", "--output", "report.html", "--format", "markdown",
            "--fail-on", "never")
        #expect(check.code == 0, "\(check.stderr)")
        var outputs: [(name: String, text: String)] = [
            ("check --format markdown", check.stdout), ("report.html", try cli.read("report.html")),
        ]
        for file in cli.files(under: "site") where file.hasSuffix(".html") || file.hasSuffix(".md") {
            outputs.append((file, try cli.read("site/\(file)")))
        }
        #expect(outputs.count > 40)
        for output in outputs { Self.expectTextOnly(output.name, output.text) }
        // Spelled out where they were: a username's ESC, a caption's NUL.
        let index = try cli.read("site/index.html")
        #expect(index.contains("\\u{1b}[31mred\\u{1b}[0m &lt;b&gt;ansi&lt;/b&gt;"))
        #expect(check.stdout.contains("\\u{1b}") && !check.stdout.contains("\u{1B}"))
        let captions = outputs.filter { $0.name.hasPrefix("posts/") }.map(\.text).joined()
        #expect(captions.contains("NUL \\u{0}, U+FFFF \\u{ffff}, NEL \\u{85}, DEL \\u{7f}"))
    }

    /// The Markdown twins keep a caption's Markdown (emphasis, line breaks), drop its raw HTML and dangerous
    /// links, and close the code fence it left open, so the rest of the page is not swallowed by it.
    @Test func markdownTwinsKeepCaptionsSafely() throws {
        let cli = try CLI()
        #expect(
            try cli.run("build", Self.export, "--out", "site", "--per-page", "100", "--pages", "markdown").code == 0)
        let twin = try #require(cli.files(under: "site").first { $0.contains("uid~41nsi") && $0.hasSuffix("index.md") })
        let text = try cli.read("site/\(twin)")
        #expect(text.contains("*mood* **strong** `code`  \nsecond line  \nthird line\n"), "\(text)")
        #expect(
            text.contains("after inline bad [ok](https://example.com) img\n"), "HTML and dangerous links gone: \(text)")
        #expect(text.contains("\nunclosed fence\n<b>still code</b>\n```\n\nno likes"), "the fence is closed: \(text)")
        #expect(!text.contains("<div>") && !text.contains("onclick"))
    }

    /// Expects an output (an HTML page when `name` ends in `.html`, else Markdown or text) to spell out every
    /// character HTML forbids, and to show what the export quotes of markup as text (`&lt;script&gt;`, `\<script\>`,
    /// or inside a Markdown code span), never as markup or a link.
    static func expectTextOnly(_ name: String, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let forbidden = text.unicodeScalars.filter(isForbidden).map { String($0.value, radix: 16) }
        #expect(forbidden.isEmpty, "\(name) holds U+\(forbidden.prefix(5))", sourceLocation: sourceLocation)
        if name.hasSuffix(".html") {
            let text = SearchScriptTag.removed(from: text)
            #expect(
                !text.contains("<script") && !text.contains("=\"javascript:"), "\(name): markup",
                sourceLocation: sourceLocation)
        } else {
            let outsideCode = text.replacing(/(`+)[^`].*?\1/, with: "")
            #expect(
                !outsideCode.contains(/[^\\]<script/) && !outsideCode.contains(/[^\\]\]\(javascript:/),
                "\(name): markup",
                sourceLocation: sourceLocation)
        }
    }

    /// The same characters as `VisibleCharacters.isForbiddenInDocuments`, written out again so that the test does
    /// not take the code's word for it: C0 but tab, LF, CR; DEL and C1; noncharacters.
    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v == 9 || v == 10 || v == 13 { return false }
        return v < 0x20 || (0x7F...0x9F).contains(v) || (0xFDD0...0xFDEF).contains(v) || v & 0xFFFF >= 0xFFFE
    }
}
