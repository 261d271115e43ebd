import FanoutCore
import FanoutJSON
import FanoutTestSupport
import Foundation
import Testing

@testable import FanoutReports
@testable import FanoutSite
@testable import FanoutTemplates

/// ``TemplateVariables`` is what docs/template-variables.md lists (GeneratedDocsTests keeps the page equal to it)
/// and `--strict` checks against; these tests keep it equal to what the code gives each template.
@Suite struct TemplateVariablesTests {
    @Test func theBuiltInTemplatesPassStrictMode() throws {
        _ = try TemplateSet(strict: true)
    }

    @Test func strictModeRejectsAValueNoPageGivesAndAMissingPartial() throws {
        let typo = try templateFolder([
            "timeline.mustache": "{{<layout}}{{$body}}\n<h1>{{usernmae}}</h1>\n{{/body}}{{/layout}}\n"
        ])
        #expect(throws: Never.self) { try TemplateSet(overrides: typo) }
        do {
            _ = try TemplateSet(overrides: typo, strict: true)
            Issue.record("no error")
        } catch {
            #expect(
                "\(error)".hasPrefix(
                    "\(typo)/timeline.mustache:2: \"usernmae\" is a value no page gives timeline.mustache (--strict); it gets "
                ), "\(error)")
        }
        // A card's value is fine in a card, not in the profile; a partial sees its includers' values.
        #expect(throws: RenderError.self) {
            try TemplateSet(overrides: try templateFolder(["profile.mustache": "{{captionHTML}}"]), strict: true)
        }
        _ = try TemplateSet(
            overrides: try templateFolder([
                "post-list.mustache": "{{#posts}}{{{card}}} {{username}} {{siteTitle}}{{/posts}}"
            ]), strict: true)
        // Transforms and dotted names look up their names.
        #expect(throws: RenderError.self) {
            try TemplateSet(overrides: try templateFolder(["index.mustache": "{{count(userz)}}"]), strict: true)
        }
        _ = try TemplateSet(
            overrides: try templateFolder([
                "index.mustache": "{{count(users)}} {{#users}}{{.}}{{/users}} {{users.username}}"
            ]), strict: true)
        let missing = try templateFolder(["post.mustache": "a\n{{> footer}}\n"])
        #expect(
            throws: RenderError.templateLine(
                file: missing + "/post.mustache", line: 2, message: "there is no template \"footer\" (footer.mustache)")
        ) {
            try TemplateSet(overrides: missing, strict: true)
        }
    }

    /// Renders a site and reports whose data has every optional value, recording what each template gets, and
    /// compares that with the catalogue both ways.
    @Test func theCatalogueIsWhatTheCodeGives() throws {
        let recorder = TemplateRecorder()
        var templates = try TemplateSet()
        templates.recorder = recorder
        let (dataset, derived) = Self.richSite()
        let content = try templateFolder([
            "index.md": "Welcome *here*.\n", "about.md": "---\ntitle: About\norder: 1\n---\n# About\n",
        ])
        let output = try TemporaryFolder("vars")
        let out = output.path
        let audit = Self.audit()
        var options = SiteOptions(exportName: "rich.json", contentDirectory: content, perPage: 2)
        // A project that keeps a history (docs/diff-and-history.md): the report page shows its trend.
        let runs = (1...4).map { n in
            HistoryRecord(
                export: "rich.json", schema: "test", time: "2026-11-0\(n)T02:00:00Z",
                counts: [.init(relation: "users", count: 3)],
                findings: [.init(rule: "follow-self", severity: .warning, count: n == 4 ? 9 : 1)])
        }
        options.trend = try HistoryWriter.reportSection(HistoryTrend(runs), templates: templates)
        try SiteBuilder(dataset: dataset, derived: derived, audit: audit, options: options, templates: templates).build(
            into: out)
        let baseline = ReportInfo(
            exportName: "rich.json", schemaName: "test",
            baseline: BaselineOutcome(hidden: 2, fixed: [BaselineEntry(rule: "follow-self", path: "following/u9/u9")]))
        for format in [ReportFormat.html, .markdown] {
            _ = try ReportWriter.render(audit, info: baseline, format: format, templates: templates)
        }
        // `fanout diff`'s and `fanout history`'s pages: changes of every kind, lists longer than shown, findings
        // new and fixed; runs that count relations, a flagged run.
        _ = try HistoryWriter.render(HistoryTrend(runs), format: .html, templates: templates)
        _ = try DiffWriter.render(
            Self.diff(new: dataset), info: DiffInfo(oldName: "old.json", newName: "rich.json", schemaName: "test"),
            format: .html, maxPerList: 1, templates: templates)
        let recorded = recorder.recorded
        for (template, variables) in TemplateVariables.own {
            var declared = Set(variables.flatMap(\.allNames))
            if TemplateVariables.pages.contains(template) {
                declared.formUnion(TemplateVariables.everyPage.flatMap(\.allNames))
            }
            let given = recorded[template] ?? []
            #expect(
                given.subtracting(declared).isEmpty,
                "\(template) gets values TemplateVariables does not list: \(given.subtracting(declared).sorted())")
            #expect(
                declared.subtracting(given).isEmpty,
                "\(template): TemplateVariables lists values never given: \(declared.subtracting(given).sorted())")
        }
        #expect(Set(recorded.keys) == Set(TemplateVariables.own.keys), "templates the code renders directly")
    }

    /// Users with and without usernames and names, posts with every optional value, a flag, pagination, a
    /// follow, stored timelines for the coverage chart, a stored counter that disagrees, comments, and a timeline
    /// and a user's liked posts long enough that their page links leave gaps.
    static func richSite() -> (Dataset, DerivedData) {
        var schema = Schema(name: "test")
        schema.timeline = TimelineRelation(pattern: PathPattern("timeline/{user}/{post}")!)
        // Findings' paths name users and posts through the patterns, so the report links their pages.
        schema.posts = PostRelation(pattern: PathPattern("posts/{poster}/{post}")!)
        schema.comments = CommentRelation(
            pattern: PathPattern("comments/{post}/{id}")!, user: FieldPath("author"), text: FieldPath("text"))
        var site = DatasetBuilder(schema: schema)
        site.user("u1", "alice", name: "Alice A.")
        site.user("u2", "bob")
        site.user("u3", name: "Carol")
        for (key, owner, time) in [
            ("-P1", "u2", 100.0), ("-P2", "u1", 200.0), ("-P3", "u3", 300.0), ("-P4", "u1", 400.0),
            ("-P5", "u2", 500.0), ("-P6", "u1", 600.0),
        ] {
            site.post(
                key, by: owner, at: time, likeCount: key == "-P1" ? 5 : nil, caption: "caption of \(key)",
                imageURL: "https://example.com/\(key).jpg", imageHeight: 300)
        }
        // Enough users and posts for more than nine pages (two a page), whose page links leave gaps.
        for n in 7...22 { site.post("-P\(n)", by: "u1", at: 600 + Double(n)) }
        for n in 4...20 { site.user("u\(n)", "user\(n)") }
        site.follow("u1", "u2")
        site.follow("u1", "u3")
        site.like("-P1", by: "u1")
        site.like("-P1", by: "u3")
        var dataset = site.dataset
        func id(_ key: String) -> KeyID { dataset.keys.intern(key) }
        // user4 likes every post: more than nine pages of liked posts.
        dataset.likes += (1...22).map { Like(post: id("-P\($0)"), user: id("u4")) }
        dataset.flags = [Flag(post: id("-P2"), user: id("u2"))]
        dataset.timeline = [TimelineEntry(user: id("u1"), post: id("-P1"), posterUID: id("u2"))]
        // A comment with a text and a time, one without either.
        dataset.comments = [
            Comment(id: id("-C1"), post: id("-P1"), user: id("u2"), text: "*nice*", createdAt: 150),
            Comment(id: id("-C2"), post: id("-P1"), user: id("u3")),
        ]
        return (dataset, DerivedData(dataset))
    }

    /// A diff from an older export to `new`: a user renamed, another gone, the rest added; a finding fixed, the
    /// audit's new.
    static func diff(new: Dataset) -> ExportDiff {
        var older = DatasetBuilder(schema: new.schema)
        older.user("u1", "alice-before", name: "Alice A.")
        older.user("u99", "gone")
        let fixed = AuditResult(
            findings: [
                Finding(
                    rule: "follow-self", severity: .warning, message: "gone follows gone", paths: ["following/u99/u99"])
            ],
            rulesRun: [RuleCatalog.descriptor("follow-self")!], skipped: [])
        return ExportDiff(old: older.dataset, new: new, oldAudit: fixed, newAudit: audit())
    }

    /// More findings of one rule than the report lists, with fixes and values, and a rule skipped.
    static func audit() -> AuditResult {
        let findings = (0...ReportView.findingsPerRule).map { i in
            Finding(
                rule: "like-count-mismatch", severity: .error, message: "stored 5, counted 2",
                paths: ["posts/u\(i)/-P/like_count"], expected: 2, actual: 5,
                fix: [PatchEntry("posts/u\(i)/-P/like_count", 2)])
        }
        return AuditResult(
            findings: findings, rulesRun: [RuleCatalog.descriptor("like-count-mismatch")!],
            skipped: [SkippedRule(rule: "timeline-missing", reason: "no timelines")])
    }
}
