import FanoutCore
import Foundation
import Testing

/// The manual's generated text is what the code makes of it now; `make docs` (`FANOUT_UPDATE_DOCS=1`) rewrites it.
@Suite struct GeneratedDocsTests {
    @Test(arguments: GeneratedSection.all) func thePageIsCurrent(_ section: GeneratedSection) throws {
        let url = GeneratedSection.repository.appendingPathComponent(section.page)
        let text = try String(contentsOf: url, encoding: .utf8)
        let current = try #require(
            section.regenerated(text), "\(section.page) lacks the markers \(section.begin) … \(section.end)")
        if ProcessInfo.processInfo.environment["FANOUT_UPDATE_DOCS"] != nil {
            if current != text { try current.write(to: url, atomically: true, encoding: .utf8) }
            return
        }
        #expect(text == current, "\(section.page) is out of date: run make docs")
    }

    /// The hand-written rules table of docs/checks.md, above the generated reference, has a row for every built-in
    /// rule, in the catalogue's order, with its default severity and a link to its entry in the reference.
    @Test func theChecksPageTableListsEveryRule() throws {
        let text = try String(
            contentsOf: GeneratedSection.repository.appendingPathComponent("docs/checks.md"), encoding: .utf8)
        let table = text.split(separator: "\n").filter { $0.hasPrefix("| [`") }
        let rows = table.map { line in line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
        #expect(rows.map { $0[0] } == RuleCatalog.descriptors.map { "[`\($0.id)`](#\($0.id))" })
        #expect(rows.map { $0[2] } == RuleCatalog.descriptors.map(\.defaultSeverity.rawValue))
    }
}
