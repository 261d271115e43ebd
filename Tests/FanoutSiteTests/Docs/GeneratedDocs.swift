import FanoutCore
import FanoutTestSupport
import Foundation
import Testing

@testable import FanoutReports
@testable import FanoutSite

/// The manual's text made from the code (`make docs`, CONTRIBUTING.md "Generated files"): the rule reference of
/// docs/checks.md, from the rules' descriptors, and the list of docs/template-variables.md, from
/// ``TemplateVariables``. Each is the text between two markers of its page; the rest of the page is written by hand.
struct GeneratedSection: Sendable, CustomTestStringConvertible {
    /// The page, relative to the repository's root.
    let page: String
    /// What the section is, for its markers.
    let name: String
    /// Where it comes from, for its first marker.
    let source: String
    let body: @Sendable () -> String

    var testDescription: String { page }
    var begin: String { "<!-- generated: \(name), from \(source), by `make docs`; do not edit by hand -->" }
    var end: String { "<!-- end of the generated \(name) -->" }

    /// `text` with the section between its markers made anew; nil when `text` lacks a marker.
    func regenerated(_ text: String) -> String? {
        guard let start = text.range(of: begin), let stop = text.range(of: end, range: start.upperBound..<text.endIndex)
        else { return nil }
        var text = text
        text.replaceSubrange(start.lowerBound..<stop.upperBound, with: [begin, body(), end].joined(separator: "\n\n"))
        return text
    }

    static let all = [rules, templateVariables]

    static let repository = repositoryRoot

    /// Every built-in rule as `fanout check --explain` describes it.
    static let rules = GeneratedSection(page: "docs/checks.md", name: "rule reference", source: "RuleCatalog") {
        RuleCatalog.descriptors.map { rule in
            let fix =
                rule.isMechanical
                ? "Fix: mechanical; each finding carries it, and `fanout export EXPORT --out DIR --repair` writes the patch ([Repair](repair.md))."
                : "Fix: none that is mechanical; a person has to decide."
            return [
                "### `\(rule.id)`", "Default severity: **\(rule.defaultSeverity.rawValue)**. \(rule.summary)",
                rule.explanation, fix,
            ]
            .joined(separator: "\n\n")
        }.joined(separator: "\n\n")
    }

    /// What each template can show: every page's values, then each template's own (templates with the same values
    /// together), then the parent and partials, which see their includers' values.
    static let templateVariables = GeneratedSection(
        page: "docs/template-variables.md", name: "template variables",
        source: "Sources/FanoutSite/Templates/TemplateVariables.swift"
    ) {
        func rows(_ variables: [TemplateVariable], in parent: String? = nil) -> [String] {
            variables.flatMap { variable in
                let place = parent.map { " (in `\($0)`)" } ?? ""
                return ["| `\(variable.name)`\(place) | \(variable.meaning) |"]
                    + rows(variable.fields, in: variable.name)
            }
        }
        let header = ["| value | meaning |", "|---|---|"]
        var lines = [
            "Every page (\(TemplateVariables.pages.sorted().map { "`\($0).mustache`" }.joined(separator: ", "))) gets:",
            "",
        ]
        lines += header + rows(TemplateVariables.everyPage)
        var groups: [(names: [String], variables: [TemplateVariable])] = []
        for name in TemplateVariables.own.keys.sorted() {
            let variables = TemplateVariables.own[name]!
            if let i = groups.firstIndex(where: { $0.variables == variables }) {
                groups[i].names.append(name)
            } else {
                groups.append(([name], variables))
            }
        }
        for group in groups {
            lines += ["", group.names.map { "`\($0).mustache`" }.joined(separator: ", ") + ":", ""]
            lines += header + rows(group.variables)
        }
        let partials = BuiltinTemplates.files.keys.filter { $0.hasSuffix(".mustache") }
            .map { String($0.dropLast(".mustache".count)) }.filter { TemplateVariables.own[$0] == nil }.sorted()
        lines += [
            "",
            partials.map { "`\($0).mustache`" }.joined(separator: ", ")
                + " are parents and partials: they see the values of the templates that include them.",
        ]
        return lines.joined(separator: "\n")
    }
}
