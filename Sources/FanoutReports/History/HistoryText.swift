import FanoutCore
import FanoutTemplates

/// `fanout history` as text (docs/diff-and-history.md, "History"): the runs and their span, the anomalies, then
/// per rule and per relation the first, last, lowest and highest count and a sparkline of the last runs.
enum HistoryText {
    /// Runs a sparkline shows.
    static let sparklineRuns = 30

    static func render(_ trend: HistoryTrend) -> String {
        var out = HistoryDescription.headline(trend).map(TerminalText.escape).joined(separator: "\n") + "\n"
        for anomaly in trend.anomalies {
            out += "  " + TerminalText.escape(HistoryDescription.anomaly(anomaly, in: trend)) + "\n"
        }
        guard !trend.runs.isEmpty else { return out }
        let rules = trend.rules.map { rule -> [String] in
            [rule, trend.severity(rule: rule).rawValue] + numbers(trend.counts(rule: rule))
        }
        out +=
            "\n"
            + table(
                [
                    "rule", "severity", "first", "last", "min", "max",
                    "last \(min(trend.runs.count, sparklineRuns)) runs",
                ], rules, left: 2)
        let relations = trend.relations.map { [$0] + numbers(trend.counts(relation: $0)) }
        out +=
            "\n"
            + table(
                ["relation", "first", "last", "min", "max", "last \(min(trend.runs.count, sparklineRuns)) runs"],
                relations, left: 1)
        return out
    }

    /// First, last, min, max (blank where the series has no value) and the sparkline.
    private static func numbers(_ series: [Int?]) -> [String] {
        let values = series.compactMap { $0 }
        let text = { (n: Int?) in n.map(CountText.grouped) ?? "-" }
        return [
            text(series.first ?? nil), text(series.last ?? nil), text(values.min()), text(values.max()),
            sparkline(Array(series.suffix(sparklineRuns))),
        ]
    }

    /// One block character per run, its height the value's share of the largest; a space where it has none.
    static func sparkline(_ series: [Int?]) -> String {
        let blocks = Array("▁▂▃▄▅▆▇█"), top = max(1, series.compactMap { $0 }.max() ?? 0)
        return String(series.map { value in value.map { blocks[min(7, $0 * 7 / top)] } ?? " " })
    }

    private static func table(_ header: [String], _ rows: [[String]], left: Int) -> String {
        let cells = [header] + rows.map { $0.map(TerminalText.escape) }
        let widths = header.indices.map { column in cells.map { $0[column].count }.max() ?? 0 }
        return cells.map { row in
            var line =
                "  "
                + row.enumerated().map { column, cell in
                    let pad = String(repeating: " ", count: widths[column] - cell.count)
                    return column < left || column == row.count - 1 ? cell + pad : pad + cell
                }.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line + "\n"
        }.joined()
    }
}

/// The sentences every form of the history says alike.
enum HistoryDescription {
    /// What the history holds and how it is judged.
    static func headline(_ trend: HistoryTrend) -> [String] {
        guard let first = trend.runs.first, let last = trend.runs.last else {
            return ["The history holds no runs yet."]
        }
        let exports = Set(trend.runs.map(\.export)), schemas = Set(trend.runs.map(\.schema))
        let what = exports.count == 1 ? first.export : CountText.phrase(exports.count, "export", "exports")
        let runs = CountText.phrase(trend.runs.count, "run", "runs")
        let span = trend.runs.count == 1 ? "at \(first.time)" : "from \(first.time) to \(last.time)"
        let flagged = Set(trend.anomalies.map(\.run)).count
        let anomalies =
            flagged == 0
            ? "no run flagged"
            : CountText.phrase(flagged, "run flagged", "runs flagged")
                + (trend.newestIsFlagged ? ", the newest among them" : "")
        return [
            "\(runs) of \(what) \(span) (\(schemas.sorted().joined(separator: ", ")) layout); \(anomalies).",
            "A run is flagged when a rule's findings are more than \(factor(trend.settings.factor)) × the median of its "
                + "\(trend.settings.window) runs before (at least \(HistoryTrend.Settings.minimumRuns) of them).",
        ]
    }

    /// `run 17 (2026-10-17T02:00:00Z, backup.json): like-count-mismatch 40 findings, 8.9 × the median 4.5 of the 7 runs before`.
    static func anomaly(_ anomaly: HistoryTrend.Anomaly, in trend: HistoryTrend) -> String {
        let run = trend.runs[anomaly.run]
        let ratio = Double(anomaly.count) / max(anomaly.median, 1)
        return "run \(anomaly.run + 1) (\(run.time), \(run.export)): \(anomaly.rule) "
            + CountText.phrase(anomaly.count, "finding", "findings")
            + ", \(factor(ratio)) × the median \(factor(anomaly.median)) of the \(anomaly.compared) runs before"
    }

    /// A factor or median with at most one decimal: `2`, `4.5`, `8.9`.
    static func factor(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
    }
}
