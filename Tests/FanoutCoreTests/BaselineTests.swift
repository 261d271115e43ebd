import FanoutCore
import FanoutJSON
import FanoutTestSupport
import Testing

/// Baselines: findings matched by rule and first path, hidden, and entries no longer found reported fixed.
@Suite struct BaselineTests {
    func drifted() -> DatasetBuilder {
        var b = RuleTrigger.consistent()
        b.dataset.posts[0].storedLikeCount = 3
        b.like("pa", by: "ghost")
        return b
    }

    @Test func aBaselineHidesItsOwnFindings() {
        let result = drifted().audit()
        #expect(result.findings.count == 2)
        let baseline = Baseline(findings: result.findings)
        let (remaining, outcome) = baseline.apply(to: result)
        #expect(remaining.findings.isEmpty)
        #expect(outcome == BaselineOutcome(hidden: 2, fixed: []))
    }

    @Test func matchingIgnoresSeverityAndMessageButNotPath() {
        var b = drifted()
        let baseline = Baseline(findings: b.audit().findings)
        b.dataset.posts[0].storedLikeCount = 7  // same path, other message
        b.dataset.posts[1].storedLikeCount = 9  // a new finding
        let regraded = b.audit(AuditConfiguration(settings: ["like-count-mismatch": .severity(.info)]))
        let (remaining, outcome) = baseline.apply(to: regraded)
        #expect(remaining.findings.map { $0.paths[0] } == ["posts/bob/pb/like_count"])
        #expect(outcome.hidden == 2 && outcome.fixed.isEmpty)
    }

    @Test func entriesNoLongerFoundAreFixed() {
        let baseline = Baseline(findings: drifted().audit().findings)
        var b = drifted()
        b.dataset.posts[0].storedLikeCount = 1
        let (remaining, outcome) = baseline.apply(to: b.audit())
        #expect(remaining.findings.isEmpty)
        #expect(outcome.fixed == [BaselineEntry(rule: "like-count-mismatch", path: "posts/alice/pa/like_count")])
    }

    @Test func theFileRoundTripsSortedAndVersioned() throws {
        let baseline = Baseline(entries: [
            BaselineEntry(rule: "timeline-missing", path: "timeline/u/p"),
            BaselineEntry(rule: "like-duplicate", path: "b"),
            BaselineEntry(rule: "like-duplicate", path: "a"), BaselineEntry(rule: "like-duplicate", path: "a"),
        ])
        let text = baseline.render()
        #expect(text.contains("\"version\": 1") && text.contains("\"tool\": \"fanout\""))
        #expect(!text.contains("\"line\""), "never line numbers")
        #expect(try Baseline.parse(text) == baseline)
        #expect(baseline.entries.map(\.path) == ["a", "b", "timeline/u/p"])
    }

    @Test func unusableFilesAreClearErrors() {
        #expect(throws: BaselineError.self) { try Baseline.parse("{") }
        #expect(throws: BaselineError.self) { try Baseline.parse("{\"tool\": \"detekt\"}") }
        #expect(throws: BaselineError.self) {
            try Baseline.parse("{\"tool\": \"fanout\", \"version\": 2, \"findings\": []}")
        }
        #expect(throws: BaselineError.self) {
            try Baseline.parse("{\"tool\": \"fanout\", \"version\": 1, \"findings\": [{\"rule\": 1}]}")
        }
    }
}
