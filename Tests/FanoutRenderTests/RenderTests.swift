import Foundation
import Testing

@testable import FanoutRender

@Suite struct SafeFileNameTests {
    @Test func plainKeysStayReadable() {
        #expect(SafeFileName.forKey("alice") == "alice")
        #expect(SafeFileName.forKey("user_42-x") == "user_42-x")
    }

    @Test func caseOnlyDifferencesAndUnsafeKeysGetDistinctSafeNames() {
        let keys = ["Alice", "alice", "ALICE", "..", ".", "a/b", "a\\b", "a\u{0}b", "a\nb", "-Kx", "-kx", "",
                    String(repeating: "k", count: 700), String(repeating: "k", count: 699) + "K", "con", "é"]
        let names = keys.map(SafeFileName.forKey)
        #expect(Set(names).count == keys.count, "\(names)")
        #expect(Set(names.map { $0.lowercased() }).count == keys.count, "distinct on case-insensitive file systems")
        for name in names {
            #expect(!name.isEmpty && name.utf8.count <= 80, "\(name)")
            #expect(name != "." && name != ".." && !name.hasPrefix("."))
            #expect(name.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 0x20 && !"/\\:*?\"<>|".unicodeScalars.contains($0) })
        }
        #expect(SafeFileName.forKey("Alice") == SafeFileName.forKey("Alice"), "stable")
    }
}

@Suite struct CommonMarkTests {
    @Test func rendersMarkdown() {
        #expect(CommonMark.html("hi *there*") == "<p>hi <em>there</em></p>\n")
    }

    @Test func safeModeDropsRawHTMLAndDangerousLinks() {
        let html = CommonMark.html("<script>alert(1)</script>\n\n[x](javascript:alert(1)) <img src=x onerror=alert(1)>")
        #expect(!html.contains("<script") && !html.contains("javascript:") && !html.contains("onerror"))
        #expect(html.contains("raw HTML omitted"))
    }
}

@Suite struct TemplateTests {
    @Test func builtinTemplatesMatchTheTemplatesFolder() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Templates")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
        #expect(Set(names) == Set(BuiltinTemplates.files.keys), "run `make templates`")
        for name in names {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            #expect(BuiltinTemplates.files[name] == String(text.dropLast(text.hasSuffix("\n") ? 1 : 0)), "\(name): run `make templates`")
        }
    }

    @Test func projectTemplatesOverrideFileByFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tpl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "custom {{title}}".write(to: folder.appendingPathComponent("page.mustache"), atomically: true, encoding: .utf8)
        let set = try TemplateSet(overrides: folder.path)
        #expect(try set.render(["title": "<T>"], template: "page") == "custom &lt;T&gt;")
        #expect(try set.render(["title": "x", "contentHTML": "<p>y</p>"], template: "layout").contains("<!DOCTYPE html>"))
        #expect(set.assets["style.css"] != nil)
    }

    @Test func brokenTemplateIsAClearError() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tpl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "{{#open}} never closed".write(to: folder.appendingPathComponent("page.mustache"), atomically: true, encoding: .utf8)
        #expect(throws: RenderError.self) { try TemplateSet(overrides: folder.path) }
    }

    @Test func markdownEscapingNeutralisesSyntax() {
        #expect(MarkdownText.escape("a *b* [c](d) <e> `f` | g_h") == "a \\*b\\* \\[c\\]\\(d\\) \\<e\\> \\`f\\` \\| g\\_h")
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
