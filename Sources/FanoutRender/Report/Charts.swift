/// Inline SVG charts for the HTML report: plain shapes and text, no script, styled by the site's CSS.
///
/// Labels come from the data (rule ids, usernames) and are escaped. Each chart is an `img` with a title and a
/// text description, so screen readers get the numbers without the picture.
enum Charts {
    /// Users drawn one bar each; more than this and coverage is drawn as a histogram of users.
    static let coverageBarsLimit = 40

    static let width = 640
    static let labelWidth = 200
    static let rowHeight = 22

    /// A horizontal bar chart: one row per bar, its value written after it.
    static func bars(_ bars: [ChartsData.Bar], title: String, id: String, unit: (Int) -> String = { "\($0)" }) -> String {
        let maxValue = max(1, bars.map(\.value).max() ?? 0)
        let plot = width - labelWidth - 110  // room for the value after the longest bar
        let height = max(1, bars.count) * rowHeight + 8
        let description = bars.map { "\($0.label): \(unit($0.value))" }.joined(separator: "; ")
        var svg = """
            <svg class="chart" id="\(id)" role="img" aria-labelledby="\(id)-title \(id)-desc" \
            viewBox="0 0 \(width) \(height)" width="100%" preserveAspectRatio="xMinYMin meet" xmlns="http://www.w3.org/2000/svg">
            <title id="\(id)-title">\(XMLText.escape(title))</title>
            <desc id="\(id)-desc">\(XMLText.escape(description.isEmpty ? "no data" : description))</desc>

            """
        for (row, bar) in bars.enumerated() {
            let y = 4 + row * rowHeight
            let length = bar.value == 0 ? 0 : max(2, bar.value * plot / maxValue)
            svg += "<text class=\"chart-label\" x=\"\(labelWidth - 6)\" y=\"\(y + 15)\" text-anchor=\"end\">"
                + "\(XMLText.escape(shorten(bar.label)))</text>"
            svg += "<rect class=\"chart-bar \(bar.style)\" x=\"\(labelWidth)\" y=\"\(y + 3)\" width=\"\(length)\" height=\"\(rowHeight - 6)\"/>"
            svg += "<text class=\"chart-value\" x=\"\(labelWidth + length + 6)\" y=\"\(y + 15)\">\(XMLText.escape(unit(bar.value)))</text>\n"
        }
        return svg + "</svg>"
    }

    /// Coverage as percent bars per user, or for many users, how many users fall in each tenth.
    static func coverage(_ rows: [ChartsData.Coverage]) -> String {
        if rows.count <= coverageBarsLimit {
            let bars = rows.map { row in
                ChartsData.Bar(label: row.username, value: percent(row), style: row.stored == row.derived ? "full" : "partial")
            }
            return Charts.bars(bars, title: "Timeline coverage per user (stored entries ÷ derived timeline)",
                               id: "chart-coverage", unit: { "\($0)%" })
        }
        var buckets = [Int](repeating: 0, count: 11)
        for row in rows { buckets[percent(row) / 10] += 1 }
        let bars = buckets.enumerated().map { i, count in
            ChartsData.Bar(label: i == 10 ? "100%" : "\(i * 10)–\(i * 10 + 9)%", value: count, style: i == 10 ? "full" : "partial")
        }
        return Charts.bars(bars, title: "Users by timeline coverage (stored entries ÷ derived timeline)",
                           id: "chart-coverage", unit: { $0 == 1 ? "1 user" : "\($0) users" })
    }

    /// Whole percent, rounded down, so 99.9% never shows as complete.
    static func percent(_ row: ChartsData.Coverage) -> Int {
        row.derived == 0 ? 100 : row.stored * 100 / row.derived
    }

    /// Long labels are cut so they fit the label column; the description keeps them whole.
    static func shorten(_ label: String) -> String {
        label.count > 28 ? String(label.prefix(27)) + "…" : label
    }
}
