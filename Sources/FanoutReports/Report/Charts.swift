import FanoutTemplates

/// Inline SVG charts for the HTML report: plain shapes and text, no script, styled by the site's CSS.
///
/// Labels come from the data (rule ids, usernames) and are escaped as the rest of the page is (``HTMLText``: the
/// chart is part of an HTML document). Each chart is an `img` with a title and a text description, so screen
/// readers get the numbers without the picture.
///
/// Charts fit any width without scaling their text (docs/site.md "The report's charts"): the SVG has no `viewBox`, so
/// its units are CSS pixels and labels keep their size on a phone; each row is a line of text (label, value at the
/// right) over a bar whose length is a percentage of the chart's width.
enum Charts {
    /// Users drawn one bar each; more than this and coverage is drawn as a histogram of users.
    static let coverageBarsLimit = 40

    /// One row: a line of text, then the bar under it.
    static let rowHeight = 38
    static let barHeight = 12

    /// A horizontal bar chart: one row per bar, the bar's length its share of `fullScale`, else of the largest value.
    static func bars(
        _ bars: [ChartsData.Bar], title: String, id: String, fullScale: Int? = nil,
        unit: (Int) -> String = { CountText.grouped($0) }
    ) -> String {
        let maxValue = max(1, fullScale ?? bars.map(\.value).max() ?? 0)
        let height = max(1, bars.count) * rowHeight + 4
        let description = bars.map { "\($0.label): \(unit($0.value))" }.joined(separator: "; ")
        var svg = open(id: id, title: title, description: description, height: height)
        for (row, bar) in bars.enumerated() {
            let y = row * rowHeight
            svg += "<text class=\"chart-label\" x=\"0\" y=\"\(y + 15)\">\(HTMLText.escape(shorten(bar.label)))</text>"
            svg +=
                "<text class=\"chart-value\" x=\"100%\" y=\"\(y + 15)\" text-anchor=\"end\">\(HTMLText.escape(unit(bar.value)))</text>"
            svg += "<rect class=\"chart-track\" x=\"0\" y=\"\(y + 21)\" width=\"100%\" height=\"\(barHeight)\"/>"
            svg +=
                "<rect class=\"chart-bar \(bar.style)\" x=\"0\" y=\"\(y + 21)\" width=\"\(percent(bar.value, of: maxValue))\" "
                + "height=\"\(barHeight)\"/>\n"
        }
        return svg + "</svg>"
    }

    /// A small column chart of a series over time (`fanout history`, docs/diff-and-history.md): one column per
    /// run, left to right, its height a share of the largest value; runs in `flagged` drawn in the error colour,
    /// runs without a value (nil: the rule did not run) left empty. The largest value is written at the top right;
    /// the description lists every run's label and value.
    static func columns(
        _ values: [Int?], labels: [String], flagged: Set<Int>, title: String, id: String,
        unit: (Int) -> String = { CountText.grouped($0) }
    ) -> String {
        let maxValue = max(1, values.compactMap { $0 }.max() ?? 0)
        let plot = 48, top = 20
        let description = zip(labels, values).map { "\($0): \($1.map(unit) ?? "not run")" }.joined(separator: "; ")
        var svg = open(id: id, title: title, description: description, height: top + plot + 2)
        svg +=
            "<text class=\"chart-value\" x=\"100%\" y=\"14\" text-anchor=\"end\">max \(HTMLText.escape(unit(maxValue)))</text>"
        svg += "<rect class=\"chart-track\" x=\"0\" y=\"\(top + plot)\" width=\"100%\" height=\"2\"/>\n"
        let slot = 1000 / max(1, values.count)
        for (run, value) in values.enumerated() {
            guard let value, value > 0 else { continue }
            let height = max(1, value * plot / maxValue)
            svg +=
                "<rect class=\"chart-bar\(flagged.contains(run) ? " sev-error" : "")\" x=\"\(permille(run * slot))\" "
                + "y=\"\(top + plot - height)\" width=\"\(permille(max(1, slot * 7 / 10)))\" height=\"\(height)\"/>\n"
        }
        return svg + "</svg>"
    }

    /// The `svg` element's start, with its title and its description for screen readers.
    private static func open(id: String, title: String, description: String, height: Int) -> String {
        """
        <svg class="chart" id="\(id)" role="img" aria-labelledby="\(id)-title \(id)-desc" \
        width="100%" height="\(height)" xmlns="http://www.w3.org/2000/svg">
        <title id="\(id)-title">\(HTMLText.escape(title))</title>
        <desc id="\(id)-desc">\(HTMLText.escape(description.isEmpty ? "no data" : description))</desc>

        """
    }

    /// Thousandths of the width as a percentage with one decimal (`37.5%`).
    private static func permille(_ value: Int) -> String {
        "\(value / 10)" + (value % 10 == 0 ? "" : ".\(value % 10)") + "%"
    }

    /// `value` as a percentage of `maxValue` with one decimal (`37.5%`); a value above zero is at least `0.5%`,
    /// so that it shows.
    static func percent(_ value: Int, of maxValue: Int) -> String {
        guard value > 0 else { return "0%" }
        return permille(max(5, Int((Double(value) * 1000 / Double(maxValue)).rounded())))
    }

    /// Coverage as percent bars per user, or for many users, how many users fall in each tenth.
    static func coverage(_ rows: [ChartsData.Coverage]) -> String { coverage(TimelineCoverage(rows)) }

    /// The coverage chart of a summary: its users' bars when it keeps them, else the histogram by tenth.
    static func coverage(_ summary: TimelineCoverage) -> String {
        if let rows = summary.users {
            let bars = rows.map { row in
                ChartsData.Bar(
                    label: row.username, value: TimelineCoverage.percent(row),
                    style: row.stored == row.derived ? "full" : "partial")
            }
            return Charts.bars(
                bars, title: "Timeline coverage per user (stored entries ÷ derived timeline)",
                id: "chart-coverage", fullScale: 100, unit: { "\($0)%" })
        }
        let bars = summary.byTenth.enumerated().map { i, count in
            ChartsData.Bar(
                label: i == 10 ? "100%" : "\(i * 10)–\(i * 10 + 9)%", value: count, style: i == 10 ? "full" : "partial")
        }
        return Charts.bars(
            bars, title: "Users by timeline coverage (stored entries ÷ derived timeline)",
            id: "chart-coverage", unit: { CountText.phrase($0, "user", "users") })
    }

    /// Long labels are cut so they fit the label column; the description keeps them whole.
    static func shorten(_ label: String) -> String {
        label.count > 28 ? String(label.prefix(27)) + "…" : label
    }
}
