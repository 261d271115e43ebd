import Foundation
import Testing

/// Comments and scripts cite the manual as `docs/<page>.md "Heading"` (CONTRIBUTING.md): each page they name exists,
/// and each such citation, and each of a README section, names a heading of that page, so that moving text between
/// pages cannot leave a comment pointing at nothing (the README's sections moved to docs/, and branches kept citing
/// them). A cited heading is one that stays: no date, issue number or round of measurements in it, since the dated
/// results live in bench/results/, which nothing cites.
@Suite struct CitationTests {
    static let root = GeneratedSection.repository
    /// Where citations are: the code, its tests, scripts, benchmarks and the Spark job.
    static let folders = ["Sources", "Tests", "scripts", "bench", "spark", ".ci"]
    /// Copies of `Templates/search.js` into golden sites and the embedded templates: the script's comment cites the
    /// README's old "Finding a user", but the file is copied into every site as it is, so changing it would change
    /// every golden site (docs/site.md "Finding a user" holds the section now).
    /// This file's examples are citations of nothing by design. bench/data holds the benchmarks' generated exports
    /// (1.1 GB each, after `make bench`): reading them cost this test over a minute and they cite nothing.
    /// bench/results holds dated notes of past runs, which cite the manual as it was on their day.
    static let skipped = [
        "Templates/search.js", "BuiltinTemplates+Generated.swift", "/Golden/", "/Fixtures/", "/JSONTestSuite/",
        "Docs/CitationTests.swift", "bench/data/", "bench/results/",
    ]

    /// `page "Heading"`, `page ("Heading")`, `page, "Heading"` and `README's "Heading"` in `text`, with comment
    /// markers at line starts taken out so that a citation may run over two lines (of a comment or a docstring); the
    /// pages relative to the root.
    static func citations(in text: String) -> [(page: String, heading: String)] {
        let joined = text.replacing(/\n[ \t]*(?:\/\/\/|\/\/|#)?[ \t]*/, with: " ")
        return joined.matches(of: /(docs\/[a-z-]+\.md|README(?:\.md)?)(?:'s)?,?:?\s+\(?"([^"]{1,80})"/).map { match in
            let page = match.1.hasPrefix("README") ? "README.md" : String(match.1)
            return (page, String(match.2))
        }
    }

    /// What is wrong with the citations of `text`, the file at `path`: a page that does not exist, a heading the
    /// page lacks, or a heading that names a date, an issue or a round; `anchors` caches each page's headings.
    static func problems(in text: String, at path: Substring, anchors: inout [String: Set<String>]) throws
        -> [String]
    {
        var broken: [String] = []
        for page in Set(text.matches(of: /docs\/[a-z-]+\.md/).map { String($0.0) })
        where !FileManager.default.fileExists(atPath: root.appendingPathComponent(page).path) {
            broken.append("\(path): there is no \(page)")
        }
        for citation in citations(in: text) {
            let page =
                try anchors[citation.page]
                ?? MarkdownLinks.anchors(
                    String(contentsOf: root.appendingPathComponent(citation.page), encoding: .utf8))
            anchors[citation.page] = page
            if !page.contains(MarkdownLinks.anchor(citation.heading)) {
                broken.append("\(path): \(citation.page) has no heading \"\(citation.heading)\"")
            }
            if citation.heading.contains(/(?i)issue \d|\bround\b|\d{4}-\d{2}-\d{2}/) {
                broken.append("\(path): \(citation.page) \"\(citation.heading)\" is a dated heading")
            }
        }
        return broken
    }

    @Test func everyCitedHeadingExists() throws {
        var anchors: [String: Set<String>] = [:]
        var broken: [String] = []
        var cited = 0
        for folder in Self.folders {
            let base = Self.root.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else {
                continue
            }
            for case let url as URL in walker {
                let path = url.path.dropFirst(Self.root.path.count + 1)
                guard !Self.skipped.contains(where: { path.contains($0) }),
                    let text = try? String(contentsOf: url, encoding: .utf8),
                    text.contains("README") || text.contains("docs/")
                else { continue }
                cited += Self.citations(in: text).count
                broken += try Self.problems(in: text, at: path, anchors: &anchors)
            }
        }
        #expect(broken.isEmpty, "\(broken.joined(separator: "\n"))")
        // The walk found the code's citations (dozens of docs/performance.md "Rebuilds" alone), not an empty tree.
        #expect(cited > 50, "only \(cited) citations found")
    }

    /// The check fails on a missing page, a missing heading and a dated one, and passes a heading that stays.
    @Test func brokenAndDatedCitationsAreFound() throws {
        var anchors: [String: Set<String>] = [:]
        let text = """
            // docs/performance.md "Rebuilds", docs/performance.md "No such heading", docs/nowhere.md
            // docs/performance.md "Empty views the optimizer sees (issue 27 item 4, thirteenth round)"
            """
        let problems = try Self.problems(in: text, at: "x.swift", anchors: &anchors)
        let dated = "\"Empty views the optimizer sees (issue 27 item 4, thirteenth round)\""
        #expect(
            Set(problems) == [
                "x.swift: there is no docs/nowhere.md",
                "x.swift: docs/performance.md has no heading \"No such heading\"",
                "x.swift: docs/performance.md has no heading \(dated)",
                "x.swift: docs/performance.md \(dated) is a dated heading",
            ])
    }
}
