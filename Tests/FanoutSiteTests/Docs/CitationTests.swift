import Foundation
import Testing

/// Comments and scripts cite the manual as `docs/<page>.md "Heading"` (CONTRIBUTING.md): each page they name exists,
/// and each such citation, and each of a README section, names a heading of that page, so that moving text between
/// pages cannot leave a comment pointing at nothing (the README's sections moved to docs/, and branches kept citing
/// them).
@Suite struct CitationTests {
    static let root = GeneratedSection.repository
    /// Where citations are: the code, its tests, scripts, benchmarks and the Spark job.
    static let folders = ["Sources", "Tests", "scripts", "bench", "spark", ".ci"]
    /// Copies of `Templates/search.js` into golden sites and the embedded templates: the script's comment cites the
    /// README's old "Finding a user", but the file is copied into every site as it is, so changing it would change
    /// every golden site (docs/site.md "Finding a user" holds the section now).
    /// This file's examples are citations of nothing by design. bench/data holds the benchmarks' generated exports
    /// (1.1 GB each, after `make bench`): reading them cost this test over a minute and they cite nothing.
    static let skipped = [
        "Templates/search.js", "BuiltinTemplates+Generated.swift", "/Golden/", "/Fixtures/", "/JSONTestSuite/",
        "Docs/CitationTests.swift", "bench/data/",
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

    @Test func everyCitedHeadingExists() throws {
        var anchors: [String: Set<String>] = [:]
        var broken: [String] = []
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
                for page in Set(text.matches(of: /docs\/[a-z-]+\.md/).map { String($0.0) })
                where !FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(page).path) {
                    broken.append("\(path): there is no \(page)")
                }
                for citation in Self.citations(in: text) {
                    let page =
                        try anchors[citation.page]
                        ?? MarkdownLinks.anchors(
                            String(contentsOf: Self.root.appendingPathComponent(citation.page), encoding: .utf8))
                    anchors[citation.page] = page
                    if !page.contains(MarkdownLinks.anchor(citation.heading)) {
                        broken.append("\(path): \(citation.page) has no heading \"\(citation.heading)\"")
                    }
                }
            }
        }
        #expect(broken.isEmpty, "\(broken.joined(separator: "\n"))")
    }

    @Test func citationsAreFoundOverLinesAndInTheirForms() {
        let text = """
            /// as the walker reads them (docs/layouts.md "Declaring your
            /// app's copies"), and (README, "Quick start") or docs/reports.md ("Baselines"); not docs/x.md alone
            A docstring's lines (docs/tables.md "Table
            layouts")
            """
        #expect(
            Self.citations(in: text).map { "\($0.page) \($0.heading)" } == [
                "docs/layouts.md Declaring your app's copies", "README.md Quick start", "docs/reports.md Baselines",
                "docs/tables.md Table layouts",
            ])
    }
}
