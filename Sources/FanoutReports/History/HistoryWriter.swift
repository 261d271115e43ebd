import FanoutCore
import FanoutTemplates

/// Renders a ``HistoryTrend``: `fanout history`'s text and HTML, and the trend section of the site's report page
/// (docs/diff-and-history.md, "History").
public enum HistoryWriter {
    /// The history as text, or as an HTML page carrying the stylesheet of `templates` (the built-in ones when nil).
    public static func render(_ trend: HistoryTrend, format: HistoryFormat, templates: TemplateSet? = nil)
        throws(RenderError) -> String
    {
        guard format == .html else { return HistoryText.render(trend) }
        let set: TemplateSet
        if let templates { set = templates } else { set = try TemplateSet.builtIn() }
        return HistoryHTML.page(trend, style: set.assets["style.css"] ?? "")
    }

    /// The section the site's report page shows: the trend of the rules with findings in some run.
    public static func reportSection(_ trend: HistoryTrend) -> String {
        HistoryHTML.section(trend, headingLevel: 2, allRules: false)
    }
}
