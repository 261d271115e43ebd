import FanoutCore
import FanoutJSON
import Foundation
import Testing

@testable import FanoutReports
@testable import FanoutSite

/// The report's charts: values from the audit, labels escaped, no script.
@Suite struct ChartsTests {
    func mismatch(stored: Int64, counted: Int64) -> Finding {
        Finding(
            rule: "like-count-mismatch", severity: .error, message: "m", paths: ["p"],
            expected: .number(JSONNumber(counted)), actual: .number(JSONNumber(stored)))
    }

    @Test func chartValuesComeFromTheFindings() throws {
        let rules = ["like-count-mismatch", "follow-self"].compactMap { RuleCatalog.descriptor($0) }
        let findings = [
            mismatch(stored: 7, counted: 5), mismatch(stored: 3, counted: 5), mismatch(stored: 9, counted: 7),
            Finding(rule: "follow-self", severity: .warning, message: "m", paths: ["q"]),
        ]
        let data = ChartsData(AuditResult(findings: findings, rulesRun: rules, skipped: []))
        #expect(data.findingsPerRule.map(\.value) == [3, 1])
        #expect(data.findingsPerRule.map(\.label) == ["like-count-mismatch", "follow-self"])
        #expect(data.likeDeltas.map(\.label) == ["-2", "+2"] && data.likeDeltas.map(\.value) == [1, 2])
    }

    @Test func labelsAreEscapedAndBarsScaleToTheLargestValue() {
        let svg = Charts.bars(
            [
                .init(label: "<script>alert(1)</script>&", value: 4, style: ""),
                .init(label: "b", value: 2, style: ""),
            ], title: "T \"q\"", id: "c")
        #expect(!svg.contains("<script") && svg.contains("&lt;script&gt;"))
        #expect(svg.contains("<title id=\"c-title\">T &quot;q&quot;</title>"))
        let widths = svg.matches(of: /<rect class="chart-bar[^>]* width="([0-9.]+)%"/).map { Double($0.output.1)! }
        #expect(widths == [100, 50])
    }

    /// On a phone the chart fits the screen and its text keeps its size: no viewBox (which would scale 13 px
    /// labels down to 7 px at 360 px), bars as percentages of the width.
    @Test func chartsFitAnyWidthWithoutScalingTheirText() {
        let svg = Charts.bars(
            [.init(label: "like-count-mismatch", value: 3, style: ""), .init(label: "b", value: 1, style: "")],
            title: "T", id: "c")
        #expect(!svg.contains("viewBox") && svg.contains("width=\"100%\""))
        #expect(svg.contains("width=\"33.3%\""), "\(svg)")
        #expect(Charts.percent(1, of: 100_000) == "0.5%", "a bar above zero shows")
        let coverage = Charts.coverage([.init(username: "ann", stored: 1, derived: 2)])
        #expect(coverage.contains("width=\"50%\""), "coverage bars are shares of 100%: \(coverage)")
    }

    @Test func coverageIsDrawnPerUserOrAsAHistogramForManyUsers() {
        let few = Charts.coverage([
            .init(username: "ann", stored: 3, derived: 4), .init(username: "bo", stored: 2, derived: 2),
        ])
        #expect(few.contains(">75%<") && few.contains(">100%<") && few.contains(">ann<"))
        let many = Charts.coverage((0..<100).map { .init(username: "u\($0)", stored: $0 < 30 ? 1 : 2, derived: 2) })
        #expect(many.contains(">30 users<") && many.contains(">70 users<") && !many.contains(">u1<"))
    }
}

/// How lists split into pages.
@Suite struct PaginationTests {
    @Test func pagesCoverTheListInOrderAndLinkTheirNeighbours() {
        let pagination = Pagination(perPage: 3, count: 7)
        #expect(pagination.pageCount == 3)
        #expect((1...3).flatMap { Array(pagination.range(of: $0)) } == Array(0..<7))
        let middle = pagination.values(page: 2) { PageDeclarations.timelines.path.file(page: $0) }
        let nav = middle["pagination"] as! [String: Any]
        #expect(nav["prevHref"] as? String == "index.html" && nav["nextHref"] as? String == "page-3.html")
        #expect(Pagination(perPage: 3, count: 0).pageCount == 1)
        #expect(Pagination(perPage: 3, count: 3).values(page: 1) { "\($0)" }.isEmpty, "one page: no navigation")
    }

    @Test func feedEscapesTextAndUsesPostTimesNotTheClock() {
        let feed = AtomFeed(
            uid: "u1", folder: "users/u1", title: "a & b", author: "<ann>",
            entries: [
                .init(key: "k1", path: "posts/k1.html", time: 0, author: "x", caption: "fish & chips <b>x</b> *y*"),
                .init(key: "k2", path: "posts/k2.html", time: 86_400, author: "y", caption: nil),
            ],
            baseURL: nil
        ).render()
        #expect(feed.contains("<updated>1970-01-02T00:00:00Z</updated>\n<author>"), "the newest post's time")
        #expect(feed.contains("<title>fish &amp; chips x y</title>"), "the caption's text, not its Markdown or HTML")
        #expect(feed.contains("<name>&lt;ann&gt;</name>"))
        #expect(feed.contains("href=\"../../posts/k1.html\"") && feed.contains("<id>tag:"))
    }
}
