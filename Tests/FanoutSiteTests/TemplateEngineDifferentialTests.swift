import FanoutCore
import FanoutGenerate
import FanoutImport
import FanoutTestSupport
import Foundation
import Testing

@testable import FanoutReports
@testable import FanoutSite
@testable import FanoutTemplates

/// Fanout's template engine renders every page as swift-mustache does, byte for byte (docs/performance.md
/// "Templates"): whole sites of the demo export, the hostile fixtures and generated exports, every page of every
/// kind, each built once with each engine; and every built-in template with random values.
@Suite struct TemplateEngineDifferentialTests {
    static let exports = [
        "Content/demo-export.json", "Tests/Fixtures/hostile-export.json", "Tests/Fixtures/hostile-comments-export.json",
        "Tests/Fixtures/reports-hostile-export.json", "Tests/Fixtures/friendlypix-initial_db.json",
    ]

    @Test(arguments: exports)
    func everyPageOfAnExportRendersAsSwiftMustacheRendersIt(_ export: String) throws {
        try compareEveryPage(
            of: repositoryFile(export).path,
            content: export.hasPrefix("Content/") ? repositoryFile("Content").path : nil)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func everyPageOfAGeneratedExportRendersAsSwiftMustacheRendersIt(_ seed: UInt64) throws {
        let folder = try TemporaryFolder("generated")
        let path = folder.path + "/export.json"
        _ = try ExportGenerator(.init(users: 40, seed: seed, defects: 12)).write(toFile: path)
        try compareEveryPage(of: path, content: nil)
    }

    /// Every built-in template with random values for the names it may look up (hostile text, numbers, booleans,
    /// lists, absent values), and the cards' templates with random cards.
    @Test func everyBuiltInTemplateRendersRandomValuesAsSwiftMustacheDoes() throws {
        let (ours, oracle) = (try TemplateSet(engine: .fanout), try TemplateSet(engine: .swiftMustache))
        var random = SeededGenerator(seed: 26)
        let variables = Self.allVariables
        var compared = 0
        for name in BuiltinTemplates.files.keys.sorted() where name.hasSuffix(".mustache") {
            let template = String(name.dropLast(".mustache".count))
            for _ in 0..<150 {
                let context = Self.randomValues(variables, depth: 0, &random)
                let expected = try oracle.swiftMustache(context, template: template)
                #expect(try ours.render(context, template: template) == expected, "\(template): \(context)")
                compared += 1
            }
        }
        for _ in 0..<300 {
            let card = Self.randomCard(&random)
            for template in ["post-card", "post-card.md"] {
                #expect(try ours.render(card, template: template) == oracle.render(card, template: template), "\(card)")
            }
        }
        #expect(compared > 1000)
    }

    private func compareEveryPage(of path: String, content: String?) throws {
        let dataset = try ExportLoader.load(path: path, schema: nil)
        let derived = DerivedData(dataset)
        let audit = Audit.run(CheckContext(dataset: dataset, derived: derived))
        let options = SiteOptions(
            exportName: "export.json", contentDirectory: content, perPage: 3, baseURL: "https://example.com/site/")
        func pages(_ engine: TemplateEngine) throws -> SitePages {
            try SitePages(
                dataset: dataset, derived: derived, audit: audit, options: options,
                templates: TemplateSet(engine: engine))
        }
        let (ours, oracle) = (try pages(.fanout), try pages(.swiftMustache))
        var differing: [String] = []
        let jobs = ours.jobs
        for job in jobs {
            let (page, text) = try ours.renderer.render(job)
            if try oracle.renderer.render(job).1 != text { differing.append(page) }
        }
        #expect(jobs.count > 10)
        #expect(differing.isEmpty, "\(differing.count) of \(jobs.count) pages differ: \(differing.prefix(5))")
    }

    /// Every value any template is given, by name (the first description of a name where two share it).
    static let allVariables: [TemplateVariable] = {
        var seen = Set<String>()
        return
            (TemplateVariables.everyPage + TemplateVariables.own.keys.sorted().flatMap { TemplateVariables.own[$0]! })
            .filter { seen.insert($0.name).inserted }
    }()

    static func randomValues(_ variables: [TemplateVariable], depth: Int, _ random: inout SeededGenerator) -> [String:
        Any]
    {
        var values: [String: Any] = [:]
        for variable in variables where random.next(5) != 0 {
            if !variable.fields.isEmpty, depth < 3 {
                switch random.next(4) {
                case 0:
                    values[variable.name] = (0..<random.next(4)).map { _ in
                        randomValues(variable.fields, depth: depth + 1, &random)
                    }
                case 1: values[variable.name] = randomValues(variable.fields, depth: depth + 1, &random)
                case 2: values[variable.name] = random.next(2) == 0
                default: values[variable.name] = [Any]()
                }
            } else {
                values[variable.name] = randomScalar(&random)
            }
        }
        return values
    }

    static func randomScalar(_ random: inout SeededGenerator) -> Any {
        switch random.next(8) {
        case 0: Int(random.next(2000)) - 1000
        case 1: random.next(2) == 0
        case 2: ""
        case 3: [randomText(&random), randomText(&random)]
        default: randomText(&random)
        }
    }

    /// Text with what escaping must get right: markup, quotes joined to combining marks, Markdown syntax at the
    /// start and inside, line breaks, control characters, noncharacters, emoji, Mustache tags.
    static let pieces = [
        "alice", "<", ">", "&", "\"", "'", "\"\u{301}", "<\u{338}", "*", "_", "[x](y)", "#", "1.", "-", "+", "=", "`",
        "|", "!",
        "\n", "\r\n", "\u{1}", "\u{7F}", "\u{85}", String(Unicode.Scalar(0xFFFF)!), String(Unicode.Scalar(0xFDD0)!),
        "👩‍👩‍👧", "é", "{{name}}", " ", "\t", "~", "(", ")",
        "https://example.com/a?b=c&d=e", "😀",
    ]

    static func randomText(_ random: inout SeededGenerator) -> String {
        (0..<random.next(6)).map { _ in pieces[random.next(pieces.count)] }.joined()
    }

    static func randomCard(_ random: inout SeededGenerator) -> PostCard {
        func text() -> String { randomText(&random) }
        func maybe() -> String? { random.next(3) == 0 ? nil : randomText(&random) }
        var card = PostCard(
            root: "../../", key: text(), postHref: maybe(), likesHref: maybe(), posterName: text(),
            likeCount: random.next(5), likeCountText: text(), likersSummary: maybe(), profileHref: maybe(),
            flagged: random.next(2) == 0, isoTime: maybe(), displayTime: text(), imageURL: maybe(),
            imageHeight: random.next(2) == 0 ? nil : random.next(900))
        if random.next(2) == 0 { card.caption = Caption(text()) }
        if random.next(2) == 0 { card.storedLikeCount = Int64(random.next(100)) - 50 }
        if random.next(2) == 0 { card.commentCount = random.next(4) }
        card.commentsHref = maybe()
        return card
    }
}
