import FanoutCore
import FanoutTemplates

/// Renders a ``HistoryTrend``: `fanout history`'s text and HTML, and the trend section of the site's report page
/// (docs/diff-and-history.md, "History").
public enum HistoryWriter {
    /// The formats `fanout history` writes.
    public static let formats: [ReportFormat] = [.text, .html]

    /// The history as text, or (`html`) as a page carrying the stylesheet of `templates` (the built-in ones when nil).
    public static func render(_ trend: HistoryTrend, html: Bool, templates: TemplateSet? = nil) throws(RenderError)
        -> String
    {
        guard html else { return HistoryText.render(trend) }
        let set: TemplateSet
        if let templates { set = templates } else { set = try TemplateSet.builtIn() }
        return HistoryHTML.page(trend, style: set.assets["style.css"] ?? "")
    }

    /// The section the site's report page shows: the trend of the rules with findings in some run.
    public static func reportSection(_ trend: HistoryTrend) -> String {
        HistoryHTML.section(trend, headingLevel: 2, allRules: false)
    }
}
