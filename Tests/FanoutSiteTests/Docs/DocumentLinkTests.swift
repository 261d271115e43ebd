import Foundation
import Testing

/// Every relative link of the README, CONTRIBUTING.md and the manual's pages leads somewhere: its file exists in
/// the repository, and its `#anchor` is a heading of that file.
@Suite struct DocumentLinkTests {
    static let root = GeneratedSection.repository

    static func pages() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        return ["README.md", "CONTRIBUTING.md"] + docs
    }

    /// What is wrong with the links of `page` (relative to the root), one line each.
    static func brokenLinks(of page: String) throws -> [String] {
        var anchorsOf: [URL: Set<String>] = [:]
        let text = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
        let folder = root.appendingPathComponent(page).deletingLastPathComponent()
        return try MarkdownLinks.relativeTargets(text).compactMap { target in
            let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let path = String(parts[0]), fragment = parts.count > 1 ? String(parts[1]) : nil
            let file =
                path.isEmpty
                ? root.appendingPathComponent(page) : folder.appendingPathComponent(path).standardizedFileURL
            guard file.path.hasPrefix(root.standardizedFileURL.path + "/") else {
                return "\(page): \(target) leaves the repository"
            }
            guard FileManager.default.fileExists(atPath: file.path) else { return "\(page): \(target): no such file" }
            guard let fragment else { return nil }
            guard file.pathExtension == "md" else {
                return "\(page): \(target): an anchor in a file that is not Markdown"
            }
            let anchors = try anchorsOf[file] ?? MarkdownLinks.anchors(String(contentsOf: file, encoding: .utf8))
            anchorsOf[file] = anchors
            return anchors.contains(fragment) ? nil : "\(page): \(target): no heading has the anchor #\(fragment)"
        }
    }

    @Test func everyRelativeLinkResolves() throws {
        let pages = try Self.pages()
        #expect(pages.count > 10, "the manual's pages: \(pages)")
        for page in pages {
            let broken = try Self.brokenLinks(of: page)
            #expect(broken.isEmpty, "\(broken.joined(separator: "\n"))")
        }
    }

    /// Anchors as GitHub makes them, on headings of these pages.
    @Test func anchorsFollowGitHubsRules() {
        #expect(MarkdownLinks.anchor("Declaring your app's copies") == "declaring-your-apps-copies")
        #expect(MarkdownLinks.anchor("The rules as SQL: fanout sql") == "the-rules-as-sql-fanout-sql")
        #expect(MarkdownLinks.anchor("Scale: the 11 GB export") == "scale-the-11-gb-export")
        #expect(MarkdownLinks.anchor("Rebuilds, progress and timings") == "rebuilds-progress-and-timings")
        #expect(MarkdownLinks.anchor("like_count → [the like set](x.md)") == "like_count--the-like-set")
        let text = "# Page\n## Rebuilds\n```\n## Not a heading\n```\n## Rebuilds\n### `fanout sql` #\n"
        #expect(MarkdownLinks.anchors(text) == ["page", "rebuilds", "rebuilds-1", "fanout-sql"])
    }

    /// Links in code are code; URLs with a scheme are not checked here.
    @Test func onlyRelativeLinksOutsideCodeAreChecked() {
        let text =
            "[a](a.md) ![b](img/b.png \"B\") [c](https://x.org) `[d](d.md)`\n```\n[e](e.md)\n```\n[f](#f)\n"
            + "  <img src=\"images/g.png\" alt=\"G\" width=\"200\">\n"
        #expect(MarkdownLinks.relativeTargets(text) == ["a.md", "img/b.png", "#f", "images/g.png"])
    }
}
