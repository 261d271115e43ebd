/// The formats `fanout diff` writes (docs/diff-and-history.md). JUnit, SARIF, GitHub annotations and GitLab Code
/// Quality describe one audit, not a comparison: they are ``ReportFormat``s only.
public enum DiffFormat: String, OutputFormat {
    /// Per relation the facts added, removed and changed, per rule the findings new and fixed.
    case text
    /// Everything, unabridged (`fanout-diff` version 1).
    case json
    /// The text's lists as a Markdown document.
    case markdown
    /// A page in the report's style, with the site's stylesheet inside.
    case html
}
