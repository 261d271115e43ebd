/// The formats `fanout check` can write its report in.
public enum ReportFormat: String, CaseIterable, Sendable {
    /// Grouped by rule, with counts and a summary line last.
    case text
    /// The versioned JSON report (see the README).
    case json
    /// A Markdown document, readable on GitHub.
    case markdown
    /// The HTML page the site also holds, standalone.
    case html
}
