/// The formats `fanout history` writes (docs/diff-and-history.md, "History").
public enum HistoryFormat: String, OutputFormat {
    /// The trend per rule and per relation, and the flagged runs.
    case text
    /// A page in the report's style with a chart per rule.
    case html
}
