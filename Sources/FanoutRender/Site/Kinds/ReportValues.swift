/// The values of the site's validation report, `report.html` and `report.md` (docs/reports.md), and the text of
/// `report.json`: each finding links the site's pages it concerns (``FindingPages``).
enum ReportValues {
    static func values(_ r: PageRenderer, _ job: PageJob, path: String) -> [String: Any] {
        let context = ReportView.context(
            r.audit, info: r.info, coverage: r.coverage.value, pageLinks: FindingPages(views: r.views).links)
        return r.views.page(path, title: "Validation report", context)
    }

    static func json(_ r: PageRenderer, _ job: PageJob, path: String) -> PageSource.Body {
        .text(JSONReport.render(r.audit, info: r.info, coverage: r.coverage.value))
    }

    /// `report.html`'s: the report's, and the stylesheet the standalone report (`fanout check --format html`,
    /// rendered with the same template) carries inside.
    static let htmlVariables = TemplateVariables.report
        + [.init("inlineStyle", "the site's stylesheet, which a standalone report carries inside")]
}
