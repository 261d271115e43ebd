import Testing

@testable import FanoutTemplates

/// Legal templates whose work multiplies (sections over lists inside each other, partials included twice at every
/// level) are stopped by the render budget with the nesting named, and templates within it render as before.
@Suite struct RenderBudgetTests {
    static var posts: TemplateValue { .list((0..<20).map { .dictionary(["caption": .string("post \($0)")]) }) }

    static func nested(_ depth: Int, _ inner: String) -> String {
        String(repeating: "{{#posts}}\n", count: depth) + inner + String(repeating: "{{/posts}}\n", count: depth)
    }

    @Test func nestedSectionsOverListsRunOutWithTheirLinesNamed() throws {
        let texts = ["timeline": "<main>\n" + Self.nested(8, "{{caption}}\n") + "</main>\n"]
        let compiled = CompiledTemplates(texts)
        let budget = RenderBudget(renders: 100_000, bytes: 1 << 30)
        let overrun = try #require(
            throws: RenderOverrun.self,
            performing: {
                try compiled.render(.dictionary(["posts": Self.posts]), template: "timeline", budget: budget)
            })
        #expect(overrun.open == Array(repeating: .section("posts"), count: 8))
        let error = overrun.error(texts: texts, shown: ["timeline.mustache": "T/timeline.mustache"])
        #expect(
            error.description
                == "T/timeline.mustache:2: rendering the page went past the render budget (100,000 lists rendered or "
                + "1024 MiB written) in " + (2...9).map { "{{#posts}} (line \($0))" }.joined(separator: " › ")
                + ": sections over lists nested inside each other multiply what a page renders; no page was written")
        #expect(error.onPage("users/a/index.html").description.contains("rendering users/a/index.html went past"))
    }

    /// Twice at every level of 30 partials is 2³⁰ renders without a single list; the chain runs through the partials.
    @Test func partialsIncludedTwiceAtEveryLevelRunOut() throws {
        var texts: [String: String] = ["p30": "x"]
        for level in 0..<30 { texts["p\(level)"] = "{{> p\(level + 1)}}{{> p\(level + 1)}}" }
        let compiled = CompiledTemplates(texts)
        let overrun = try #require(
            throws: RenderOverrun.self,
            performing: {
                try compiled.render(
                    .dictionary([:]), template: "p0", budget: RenderBudget(renders: 100_000, bytes: 1 << 30))
            })
        #expect(overrun.open.allSatisfy { if case .partial = $0 { true } else { false } })
        #expect(overrun.open.first == .partial("p1"))
        let error = overrun.error(texts: texts, shown: [:])
        #expect(error.description.hasPrefix("p0.mustache:1: rendering the page went past the render budget"))
        #expect(error.description.contains("{{>p1}} (line 1) › {{>p2}} (line 1)"))
    }

    /// A few lists writing much run out of bytes rather than renders; a section inside a partial is named in it.
    @Test func outputPastTheByteBoundRunsOut() throws {
        let big = String(repeating: "x", count: 10_000)
        let texts = [
            "page": "{{#posts}}\n{{> card}}\n{{/posts}}\n", "card": "a\n{{#posts}}{{#posts}}\(big){{/posts}}{{/posts}}",
        ]
        let compiled = CompiledTemplates(texts)
        let budget = RenderBudget(renders: 1 << 40, bytes: 1 << 20)
        let overrun = try #require(
            throws: RenderOverrun.self,
            performing: {
                try compiled.render(.dictionary(["posts": Self.posts]), template: "page", budget: budget)
            })
        let error = overrun.error(texts: texts, shown: [:])
        #expect(error.description.contains("(1,099,511,627,776 lists rendered or 1 MiB written)"))
        #expect(
            error.description.contains(
                "in {{#posts}} (line 1) › {{>card}} (line 2) › {{#posts}} (line 2) › {{#posts}} (line 2):"),
            "\(error)")
    }

    /// Within the budget, a render is what swift-mustache renders: the bound changes nothing it does not stop.
    @Test func withinTheBudgetNothingChanges() throws {
        let texts = ["timeline": "<main>\n" + Self.nested(2, "{{caption}}\n") + "</main>\n"]
        let set = try TemplateSet(builtIn: texts.mapKeys { "\($0).mustache" }, engine: .fanout)
        let context: [String: Any] = ["posts": (0..<20).map { ["caption": "post \($0)"] }]
        let fanout = try set.render(context, template: "timeline")
        #expect(fanout == (try set.swiftMustache(context, template: "timeline")))
        #expect(fanout.components(separatedBy: "post 7").count - 1 == 20)
    }
}

extension Dictionary {
    fileprivate func mapKeys<K: Hashable>(_ transform: (Key) -> K) -> [K: Value] {
        [K: Value](uniqueKeysWithValues: map { (transform($0.key), $0.value) })
    }
}
