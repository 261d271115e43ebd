import FanoutCore
import FanoutTemplates

/// `fanout history` as a page in the report's style, rendered by `history.mustache` (inside
/// `standalone.mustache`, with the site's stylesheet), and the trend section the site's report page shows when
/// the project keeps a history, rendered by `history-trend.mustache`, which the page includes
/// (docs/diff-and-history.md, "History"): one small column chart per rule (the report's chart code, ``Charts``,
/// HTML already), flagged runs in the error colour, and the relations' counts.
enum HistoryHTML {
    /// Runs a chart shows.
    static let chartRuns = 60

    /// The standalone page.
    static func page(_ trend: HistoryTrend, templates: TemplateSet) throws(RenderError) -> String {
        var context = pageValues(trend)
        context["title"] = "History"
        // A page written on its own has no site's style.css beside it: it carries the stylesheet inside.
        context["inlineStyle"] = templates.assets["style.css"] ?? ""
        return StandalonePage.finished(try templates.render(context, template: "history"))
    }

    /// The values `history.mustache` sees, but for the page's `title` and `inlineStyle`.
    static func pageValues(_ trend: HistoryTrend) -> [String: Any] {
        let relations: [[String: Any]] = trend.relations.map { relation in
            let series = trend.counts(relation: relation), values = series.compactMap { $0 }
            let text = { (n: Int?) in n.map(CountText.grouped) ?? "–" }
            return [
                "relation": relation, "first": text(series.first ?? nil), "last": text(series.last ?? nil),
                "min": text(values.min()), "max": text(values.max()),
            ]
        }
        let exports = Set(trend.runs.map(\.export)).sorted()
        return [
            "trend": sectionValues(trend, allRules: true), "hasRelations": !relations.isEmpty,
            "relations": relations,
            "exports": exports.enumerated().map { ["name": $0.element, "last": $0.offset == exports.count - 1] },
        ]
    }

    /// The trend section (`history-trend.mustache`) of all rules, or for the report page of those with findings
    /// in some run.
    static func section(_ trend: HistoryTrend, allRules: Bool, templates: TemplateSet) throws(RenderError) -> String {
        try templates.render(sectionValues(trend, allRules: allRules), template: "history-trend")
    }

    /// The trend's values: the headline, the anomalies, and a chart per rule (all of them, or those with findings
    /// in some run).
    static func sectionValues(_ trend: HistoryTrend, allRules: Bool) -> [String: Any] {
        let first = max(0, trend.runs.count - chartRuns)
        let labels = trend.runs[first...].enumerated().map { "run \(first + $0.offset + 1), \($0.element.time)" }
        var charts: [[String: Any]] = []
        for (index, rule) in trend.rules.enumerated() {
            let series = Array(trend.counts(rule: rule)[first...])
            if !allRules && !series.contains(where: { ($0 ?? 0) > 0 }) { continue }
            let flagged = Set(trend.anomalies.filter { $0.rule == rule && $0.run >= first }.map { $0.run - first })
            let chart = Charts.columns(
                series, labels: labels, flagged: flagged, title: "Findings of \(rule) per run",
                id: "chart-trend-\(index)", unit: { CountText.phrase($0, "finding", "findings") })
            charts.append([
                "chart": chart, "rule": rule, "severity": trend.severity(rule: rule).rawValue,
                "flagged": !flagged.isEmpty,
            ])
        }
        return [
            "headline": HistoryDescription.headline(trend), "hasAnomalies": !trend.anomalies.isEmpty,
            "anomalies": trend.anomalies.map { HistoryDescription.anomaly($0, in: trend) }, "charts": charts,
        ]
    }
}
