import FanoutCore
import FanoutTemplates

/// Renders an audit in any ``ReportFormat``.
public enum ReportWriter {
    /// The report text; `templates` is used for HTML and Markdown (the built-in ones when nil), and `coverage`
    /// (see ``ChartsData/timelineCoverage(dataset:derived:)``) adds the HTML report's timeline-coverage chart,
    /// as on the site's report page, and the JSON report's `summary.timeline_coverage`; `text` shapes the text report.
    public static func render(
        _ result: AuditResult, info: ReportInfo, format: ReportFormat, templates: TemplateSet?,
        coverage: [ChartsData.Coverage]? = nil, text: TextReport.Options = TextReport.Options()
    ) throws(RenderError) -> String {
        try render(
            result, info: info, format: format, templates: templates, coverage: coverage.map(TimelineCoverage.init),
            text: text)
    }

    /// The report text, with timeline coverage already summarized (as `fanout report` reads it from a JSON
    /// report); the JSON report carries it too.
    package static func render(
        _ result: AuditResult, info: ReportInfo, format: ReportFormat, templates: TemplateSet?,
        coverage: TimelineCoverage?, text: TextReport.Options = TextReport.Options()
    ) throws(RenderError) -> String {
        switch format {
        case .text: return TextReport.render(result, info: info, options: text)
        case .json: return JSONReport.render(result, info: info, coverage: coverage)
        case .junit: return JUnitReport.render(result, info: info)
        case .sarif: return SARIFReport.render(result, info: info)
        case .github: return GitHubReport.render(result, info: info)
        case .gitlab: return GitLabReport.render(result, info: info)
        case .markdown, .html:
            let set: TemplateSet
            if let templates { set = templates } else { set = try TemplateSet.builtIn() }
            var context = ReportView.context(result, info: info, coverage: coverage)
            context["root"] = ""
            context["title"] = "Validation report"
            context["siteTitle"] = "Fanout"
            // A report written on its own has no site's style.css beside it: it carries the stylesheet inside.
            if format == .html { context["inlineStyle"] = set.assets["style.css"] }
            return try set.render(context, template: format == .html ? "report" : "report.md")
        }
    }
}
