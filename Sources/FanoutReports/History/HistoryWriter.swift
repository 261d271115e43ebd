import FanoutCore
import FanoutTemplates

/// Renders a ``HistoryTrend``: `fanout history`'s text and HTML, and the trend section of the site's report page
/// (docs/diff-and-history.md, "History").
public enum HistoryWriter {
    /// The history as text, or as an HTML page rendered by `history.mustache` of `templates` (the built-in ones when
    /// nil), with their stylesheet inside.
    public static func render(_ trend: HistoryTrend, format: HistoryFormat, templates: TemplateSet? = nil)
        throws(RenderError) -> String
    {
        guard format == .html else { return HistoryText.render(trend) }
        let set: TemplateSet
        if let templates { set = templates } else { set = try TemplateSet.builtIn() }
        return try HistoryHTML.page(trend, templates: set)
    }

    /// The section the site's report page shows: the trend of the rules with findings in some run, rendered by
    /// `history-trend.mustache` of `templates` (the built-in ones when nil).
    public static func reportSection(_ trend: HistoryTrend, templates: TemplateSet? = nil) throws(RenderError)
        -> String
    {
        let set: TemplateSet
        if let templates { set = templates } else { set = try TemplateSet.builtIn() }
        return try HistoryHTML.section(trend, allRules: false, templates: set)
    }
}
