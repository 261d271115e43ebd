import FanoutReports

/// The values of the site's validation report, `report.html` and `report.md` (docs/reports.md), and the text of
/// `report.json`: each finding links the site's pages it concerns (``FindingPages``).
enum ReportValues {
    static func values(_ r: PageRenderer, _ job: PageJob, path: String) -> [String: Any] {
        let context = ReportView.context(
            r.audit, info: r.info, coverage: r.coverage.value, pageLinks: FindingPages(views: r.views).links)
        return r.views.page(path, title: "Validation report", context)
    }

    /// `report.html`'s: the report's, and the trend of the project's history when it keeps one
    /// (docs/diff-and-history.md "In a site project"); without one the page is as it was, byte for byte.
    static func htmlValues(_ r: PageRenderer, _ job: PageJob, path: String) -> [String: Any] {
        var values = values(r, job, path: path)
        if let trend = r.trend { values["trend"] = trend }
        return values
    }

    static func json(_ r: PageRenderer, _ job: PageJob, path: String) -> PageSource.Body {
        .text(JSONReport.render(r.audit, info: r.info, coverage: r.coverage.value))
    }

    /// `report.html`'s: the report's, the stylesheet the standalone report (`fanout check --format html`,
    /// rendered with the same template) carries inside, and the history's trend.
    static let htmlVariables =
        TemplateVariables.report + [
            .init("inlineStyle", "the site's stylesheet, which a standalone report carries inside"),
            .init(
                "trend",
                "the trend of the project's history, when fanout.toml names one (`history`): its runs, anomalies "
                    + "and a chart per rule with findings (insert unescaped); absent otherwise"),
        ]
}
