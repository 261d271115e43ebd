import FanoutTestSupport
import Foundation
import Testing

@testable import FanoutReports
@testable import FanoutSite
@testable import FanoutTemplates

@Suite struct SafeFileNameTests {
    @Test func plainKeysStayReadable() {
        #expect(SafeFileName.forKey("alice") == "alice")
        #expect(SafeFileName.forKey("user_42-x") == "user_42-x")
    }

    @Test func everyOtherByteIsEscaped() {
        #expect(SafeFileName.forKey("Alice") == "~41lice")
        #expect(SafeFileName.forKey("a.b") == "a~2eb")
        #expect(SafeFileName.forKey("-Kx") == "-~4bx")
        #expect(SafeFileName.forKey("é") == "~c3~a9")
        #expect(SafeFileName.forKey("~") == "~7e")
        #expect(SafeFileName.forKey("") == "~")
    }

    @Test func caseOnlyDifferencesAndUnsafeKeysGetDistinctSafeNames() {
        let keys = [
            "Alice", "alice", "ALICE", "..", ".", "a/b", "a\\b", "a\u{0}b", "a\nb", "-Kx", "-kx", "", "~", "~41lice",
            String(repeating: "k", count: 700), String(repeating: "k", count: 699) + "K", "con", "é",
        ]
        let names = keys.map(SafeFileName.forKey)
        #expect(Set(names).count == keys.count, "\(names)")
        #expect(Set(names.map { $0.lowercased() }).count == keys.count, "distinct on case-insensitive file systems")
        for name in names {
            #expect(!name.isEmpty && name.utf8.count <= SafeFileName.maxEscapedLength, "\(name)")
            #expect(name != "." && name != ".." && !name.hasPrefix("."))
            #expect(
                name.unicodeScalars.allSatisfy { "abcdefghijklmnopqrstuvwxyz0123456789-_~".unicodeScalars.contains($0) }
            )
        }
        #expect(SafeFileName.forKey("Alice") == SafeFileName.forKey("Alice"), "stable")
    }

    /// The escape is read back into the key, so no two keys share an escaped name: random keys of bytes that need
    /// escaping and bytes that do not, and the pairs whose names collided under the old 48-bit hash.
    @Test func everyEscapedNameReadsBackToItsKey() {
        let alphabet = [
            "a", "z", "0", "-", "_", "~", "A", "Z", ".", "/", " ", "é", "中", "🎉", "\u{200B}", "\u{0}", "%", "~7e",
        ]
        var random = SeededGenerator(seed: 50)
        let keys =
            (0..<5000).map { _ in (0..<random.next(30)).map { _ in alphabet[random.next(alphabet.count)] }.joined() }
            + OldFileNames.collisions.flatMap { $0 } + ["Uid0253cccb", "Uid08ebbe22", ""]
        var names: [String: String] = [:]
        for key in keys {
            let name = SafeFileName.forKey(key)
            let escapedLength = key.utf8.reduce(0) { $0 + (SafeFileName.isPlain($1) ? 1 : 3) }
            guard escapedLength <= SafeFileName.maxEscapedLength else {
                #expect(SafeFileName.isHashedName(name[...]), "\(key.debugDescription): too long to escape")
                continue
            }
            #expect(!SafeFileName.isHashedName(name[...]), "\(key.debugDescription): an escaped name holds no ~~")
            #expect(SafeFileName.key(ofName: name[...]) == key, "\(key.debugDescription) → \(name)")
            if let other = names.updateValue(key, forKey: name) {
                #expect(other == key, "\(other.debugDescription) and \(key.debugDescription) share \(name)")
            }
        }
        #expect(names.count > 4000)
    }

    /// A name no key is given reads back to no key, so `serve` finds no page there.
    @Test func namesNoKeyHasReadBackToNoKey() {
        for name in [
            "~4B", "~61lice", "a~", "a~4", "~zz", "~c3", "A", "a.b", "~~0123", String(repeating: "~41", count: 41),
        ] {
            #expect(SafeFileName.key(ofName: name[...]) == nil, "\(name)")
        }
        #expect(SafeFileName.key(ofName: "~"[...]) == "")
        #expect(SafeFileName.key(ofName: "~41"[...]) == "A")
    }

    /// Keys whose escape is too long get a slug, `~~` and 128 bits of their SHA-256.
    @Test func longKeysAreHashed() throws {
        let key = String(repeating: "K", count: 41), plain = String(repeating: "k", count: 121)
        #expect(
            SafeFileName.forKey(key) == String(repeating: "k", count: 40) + "~~" + "\(try sha256Hex(key).prefix(32))")
        #expect(
            SafeFileName.forKey(plain) == String(repeating: "k", count: 40) + "~~"
                + "\(try sha256Hex(plain).prefix(32))")
        #expect(SafeFileName.forKey(String(repeating: "k", count: 120)) == String(repeating: "k", count: 120))
        #expect(SafeFileName.isHashedName(SafeFileName.forKey(key)[...]))
        #expect(SafeFileName.key(ofName: SafeFileName.forKey(key)[...]) == nil, "a hashed name is read from a table")
    }

    /// SHA-256 of `text`'s UTF-8 in hex, by `sha256sum`, the tool a user would check it with.
    private func sha256Hex(_ text: String) throws -> String {
        let result = try runTool("sha256sum", [], stdin: Data(text.utf8))
        return String(result.stdout.prefix(64))
    }
}

@Suite struct CommonMarkTests {
    @Test func rendersMarkdown() {
        #expect(CommonMark.html("hi *there*") == "<p>hi <em>there</em></p>\n")
    }

    @Test func safeModeDropsRawHTMLAndDangerousLinks() {
        let html = CommonMark.html(
            "<script>alert(1)</script>\n\n[x](javascript:alert(1)) <img src=x onerror=alert(1)> ![pic](javascript:y)")
        #expect(!html.contains("<script") && !html.contains("javascript:") && !html.contains("onerror"))
        #expect(html == "<p>x  pic</p>\n", "links and images to dangerous URLs keep their text; no empty src")
        #expect(
            CommonMark.html("[ok](https://example.com) ![p](data:image/png;base64,AA)")
                == "<p><a href=\"https://example.com\">ok</a> <img src=\"data:image/png;base64,AA\" alt=\"p\" /></p>\n")
    }

    /// Apps show a caption's line breaks; Markdown documents (`Content/` pages) do not.
    @Test func captionsKeepTheirLineBreaksPagesDoNot() {
        let text = "messiiiii!!!!!!!\ndadadada\ndad"
        #expect(CommonMark.html(text, hardBreaks: true) == "<p>messiiiii!!!!!!!<br />\ndadadada<br />\ndad</p>\n")
        #expect(CommonMark.html(text) == "<p>messiiiii!!!!!!!\ndadadada\ndad</p>\n")
    }

    /// The Markdown twins show a caption's Markdown, not an escaped copy of it, without what HTML leaves out.
    @Test func safeMarkdownKeepsTheCaptionsMarkdown() {
        #expect(CommonMark.safeMarkdown("a *mood* and **bold** `code`") == "a *mood* and **bold** `code`")
        #expect(CommonMark.safeMarkdown("line one\nline two") == "line one  \nline two", "soft breaks stay line breaks")
        let cleaned = CommonMark.safeMarkdown(
            "<div>x</div>\n\nhi <b>there</b> [bad](javascript:alert(1)) ![img](vbscript:x) [ok](https://e.org)")
        #expect(cleaned == "hi there bad img [ok](https://e.org)", "\(cleaned)")
        #expect(
            CommonMark.safeMarkdown("```\nopen fence").hasSuffix("\nopen fence\n```"),
            "what the caption opens is closed")
        #expect(CommonMark.safeMarkdown("<p>only html</p>").isEmpty)
    }

    @Test func plainTextIsTheTextWithoutMarkup() {
        #expect(CommonMark.plainText("First light over the *harbour* 🌅") == "First light over the harbour 🌅")
        #expect(
            CommonMark.plainText("Rainy <b>day</b> [list](https://x.org)\nnext\n\n# Head")
                == "Rainy day list\nnext\n\nHead")
    }

    /// Every output of libcmark spells out what no document may hold, so a caption's ESC reaches no page raw.
    @Test func controlCharactersAreSpelledOutInEveryRendering() {
        let caption = "a\u{1B}[2J b\u{0} c" + TextTests.scalars(0xFFFF) + " *d*"
        // The Markdown twin's text read back as a reader of Markdown would (its backslashes are escapes).
        let markdown = CommonMark.safeMarkdown(caption)
        #expect(!markdown.unicodeScalars.contains(where: VisibleCharacters.isForbiddenInDocuments), "\(markdown)")
        for out in [CommonMark.html(caption), CommonMark.plainText(markdown), CommonMark.plainText(caption)] {
            #expect(!out.unicodeScalars.contains(where: VisibleCharacters.isForbiddenInDocuments), "\(out)")
            #expect(out.contains("\\u{1b}[2J") && out.contains("\\u{0}") && out.contains("\\u{ffff}"), "\(out)")
        }
    }
}

/// Characters HTML forbids, spelled out in every HTML and Markdown escaper; counts as pages show them.
@Suite struct TextTests {
    /// Swift's literals cannot hold noncharacters, so they are put in by code point.
    static let hostile =
        "nul\u{0} esc\u{1B}[31m del\u{7F} nel\u{85} nonchar" + scalars(0xFDD0, 0xFFFE, 0x1FFFF)
        + " tab\tlf\ncr\r <&>"

    static func scalars(_ values: UInt32...) -> String {
        String(String.UnicodeScalarView(values.compactMap(Unicode.Scalar.init)))
    }

    @Test func htmlEscapingSpellsOutForbiddenCharacters() {
        let html = HTMLText.escape(Self.hostile)
        #expect(
            html
                == "nul\\u{0} esc\\u{1b}[31m del\\u{7f} nel\\u{85} nonchar\\u{fdd0}\\u{fffe}\\u{1ffff} tab\tlf\ncr\r &lt;&amp;&gt;"
        )
        #expect(HTMLText.escape("é € 😀 \u{FDCF}\u{FFFD}") == "é € 😀 \u{FDCF}\u{FFFD}", "allowed characters stay")
        #expect(HTMLText.escape("\u{1B}") == "\\u{1b}")
    }

    @Test func markdownEscapingSpellsOutForbiddenCharacters() {
        for out in [MarkdownText.escape(Self.hostile), MarkdownCode.span(Self.hostile)] {
            #expect(!out.unicodeScalars.contains(where: VisibleCharacters.isForbiddenInDocuments), "\(out)")
            // Read back as Markdown, the text shows each code point.
            let read = CommonMark.plainText(out)
            #expect(read.contains("\\u{1b}[31m") && read.contains("\\u{0}") && read.contains("\\u{1ffff}"), "\(read)")
        }
    }

    @Test func countsAreGroupedAndAgreeInNumber() {
        #expect(CountText.grouped(0) == "0" && CountText.grouped(999) == "999" && CountText.grouped(1000) == "1,000")
        #expect(CountText.grouped(423_253) == "423,253" && CountText.grouped(-1_234_567) == "-1,234,567")
        #expect(CountText.phrase(1, "like", "likes") == "1 like" && CountText.phrase(0, "like", "likes") == "0 likes")
        #expect(CountText.phrase(1_093, "post", "posts") == "1,093 posts")
    }

    @Test func photoHeightIsReservedOnlyWhenItIsAHeight() {
        #expect(SiteViews.photoHeight(375) == 375 && SiteViews.photoHeight(420.5) == 421)
        #expect(
            SiteViews.photoHeight(nil) == nil && SiteViews.photoHeight(-10) == nil && SiteViews.photoHeight(0.2) == nil)
        #expect(SiteViews.photoHeight(1e300) == nil && SiteViews.photoHeight(.nan) == nil)
    }
}

@Suite struct TemplateTests {
    @Test func builtinTemplatesMatchTheTemplatesFolder() throws {
        let folder = repositoryFile("Templates")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
        #expect(Set(names) == Set(BuiltinTemplates.files.keys), "run `make templates`")
        for name in names {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            #expect(
                BuiltinTemplates.files[name] == String(text.dropLast(text.hasSuffix("\n") ? 1 : 0)),
                "\(name): run `make templates`")
        }
    }

    @Test func projectTemplatesOverrideFileByFile() throws {
        let folder = try TemporaryFolder("templates")
        try folder.write("custom {{title}}", to: "page.mustache")
        let set = try TemplateSet(overrides: folder.path)
        #expect(try set.render(["title": "<T>"], template: "page") == "custom &lt;T&gt;")
        #expect(
            try set.render(["title": "x", "contentHTML": "<p>y</p>"], template: "layout").contains("<!DOCTYPE html>"))
        #expect(set.assets["style.css"] != nil)
    }

    @Test func brokenTemplateIsAClearError() throws {
        let folder = try TemporaryFolder("templates")
        try folder.write("{{#open}} never closed", to: "page.mustache")
        #expect(throws: RenderError.self) { try TemplateSet(overrides: folder.path) }
    }

    @Test func markdownEscapingNeutralisesSyntax() {
        #expect(
            MarkdownText.escape("a *b* [c](d) <e> `f` | g_h") == "a \\*b\\* \\[c\\]\\(d\\) \\<e\\> \\`f\\` \\| g\\_h")
        #expect(MarkdownText.escape("# title\nnext") == "\\# title next")
        #expect(MarkdownText.escape("1. item") == "1\\. item")
        #expect(MarkdownText.escape("- item") == "\\- item")
        #expect(MarkdownText.escape("version 1.5 - ok") == "version 1.5 - ok")
    }

    @Test func likersSummaryReadsLikeTheSeeds() {
        #expect(SiteViews.summary(["alice"], total: 1) == "alice")
        #expect(SiteViews.summary(["alice", "bob"], total: 2) == "alice and bob")
        #expect(SiteViews.summary(["alice", "bob", "carol"], total: 3) == "alice, bob and carol")
        #expect(SiteViews.summary(["alice", "bob", "carol"], total: 5) == "alice, bob and 3 others")
    }

    @Test func imageURLsMustBeHTTP() {
        #expect(SafeURL.image("https://example.com/a.jpg") == "https://example.com/a.jpg")
        #expect(SafeURL.image("HTTP://example.com/a.jpg") != nil)
        #expect(SafeURL.image("javascript:alert(1)") == nil)
        #expect(SafeURL.image("data:image/png;base64,xx") == nil)
        #expect(SafeURL.image("https://x/\"onerror=\"alert(1)") == nil)
        #expect(SafeURL.image(nil) == nil)
    }

    @Test func datesAreUTCAndDeterministic() {
        #expect(DateText.iso(1490119356.786) == "2017-03-21T18:02:36Z")
        #expect(DateText.display(0) == "1970-01-01 00:00 UTC")
        #expect(DateText.iso(-86400) == "1969-12-31T00:00:00Z")
        #expect(DateText.iso(.infinity) == "1970-01-01T00:00:00Z")
    }
}
