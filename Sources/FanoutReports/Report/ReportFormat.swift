/// The formats `fanout check` can write its report in.
public enum ReportFormat: String, OutputFormat {
    /// Grouped by rule, with counts and a summary line last.
    case text
    /// The versioned JSON report (docs/reports.md).
    case json
    /// A Markdown document, readable on GitHub.
    case markdown
    /// The HTML page the site also holds, standalone.
    case html
    /// JUnit XML: one test suite per rule, one test case per finding (GitLab, Jenkins, Azure test reports).
    case junit
    /// SARIF 2.1.0, for GitHub code scanning and other static-analysis viewers.
    case sarif
    /// GitHub Actions workflow commands (`::error title=…::…`), shown as annotations on the run.
    case github
    /// GitLab Code Quality (the Code Climate issue subset), shown in the merge request's widget.
    case gitlab
}
