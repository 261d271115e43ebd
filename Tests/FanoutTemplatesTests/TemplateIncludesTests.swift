import FanoutTestSupport
import Foundation
import Testing

@testable import FanoutSite
@testable import FanoutTemplates

/// What a template change reaches: the template, and every template including it, directly or not.
@Suite struct TemplateIncludesTests {
    @Test func partialsAndParents() {
        #expect(
            TemplateIncludes.names(in: "{{<layout}}{{$body}}{{> post-list}}{{/body}}{{/layout}}{{{raw}}}") == [
                "layout", "post-list",
            ])
        #expect(TemplateIncludes.names(in: "{{=<% %>=}}<%> hidden%>") == nil)
        #expect(TemplateIncludes.names(in: "{{>*dynamic}}") == nil)
        let closures = TemplateIncludes.closures([
            "timeline": "{{<layout}}{{>post-list}}{{/layout}}", "layout": "{{title}}", "post-list": "{{>pagination}}",
            "pagination": "", "other": "{{=| |=}}",
        ])
        #expect(closures["timeline"] == ["timeline", "layout", "post-list", "pagination"])
        #expect(closures["layout"] == ["layout"])
        #expect(closures["other"] == ["timeline", "layout", "post-list", "pagination", "other"])
    }

    /// Any whitespace may stand around a partial's or a parent's name, as swift-mustache reads tags: each of these
    /// tags includes `part` for the engine (it renders the partial's text), so a change to `part` must reach the
    /// template.
    @Test(arguments: [
        "{{>part}}", "{{> part }}", "{{>\tpart}}", "{{>part\t}}", "{{>\npart}}", "{{>\r\n part \n}}", "{{>\u{A0}part}}",
        "{{<\tpart}}{{/part}}", "{{<\npart\n}}{{/part}}", "{{{x}}}{{>\tpart}}",
    ])
    func whitespaceAroundANameStillIncludes(_ tag: String) throws {
        #expect(TemplateIncludes.names(in: tag)?.contains("part") == true)
        let folder = try TemporaryFolder("includes")
        try folder.write(["probe.mustache": tag, "part.mustache": "PART"])
        let rendered = try TemplateSet(overrides: folder.path).render(["x": 1], template: "probe")
        #expect(rendered.contains("PART"), "the engine takes \(tag.debugDescription) as including part")
    }

    @Test func aDynamicNameAfterWhitespaceDependsOnEverything() {
        #expect(TemplateIncludes.names(in: "{{>\t*name}}") == nil)
        #expect(TemplateIncludes.names(in: "{{<\n*name}}{{/name}}") == nil)
    }
}
