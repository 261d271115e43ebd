import FanoutCLI
import FanoutCore
import FanoutImport
import FanoutReports
import FanoutSite
import FanoutTemplates
import Foundation

/// The input as the files a user gives the renderers: a Mustache template, a JSON report, a history file and a site
/// project's `fanout.toml`.
///
/// - A template, as `build --templates FOLDER` reads one (``TemplateSet/init(overrides:strict:engine:)``, strict and
///   not), then renders the demo export's site with it (``SiteBuilder``): once as every template at once (so that
///   `{{> post-card}}` in it includes itself, which must be an error, not a stack overflow), once as the partial
///   `post-card` inside the built-in pages, and as the report templates of `check --format html|markdown`, with
///   both engines. The same text is also the site's Markdown page `Content/about.md`.
/// - A JSON report, as `fanout report` reads one (``JSONReport/parse(_:)``), rendered in every format, and
///   written as JSON must read back to the same JSON (what `report` writes, `report` reads).
/// - A history, as `check --history` and `fanout history` read one (``HistoryRecord/parse(_:)``), its trend
///   rendered as text, HTML and the report page's section.
/// - A `fanout.toml` (``ProjectConfig/parse(_:file:)``), its rules checked against every preset.
enum RenderFuzz {
    static func run(_ bytes: UnsafeRawBufferPointer) {
        report(bytes)
        guard let text = String(validating: bytes.assumingMemoryBound(to: UInt8.self), as: UTF8.self) else {
            return
        }
        history(text)
        project(text)
        // A template of at most 16 KiB (the built-in ones are under 3): swift-mustache's parser takes time growing
        // faster than a template's length (1.2 s for 60 KB in a debug build, 3.9 s for 120 KB), and the input is
        // parsed as 17 templates several times, past libFuzzer's 10 seconds.
        if text.utf8.count <= 16_384 { template(text) }
    }

    // MARK: JSON reports

    private static func report(_ bytes: UnsafeRawBufferPointer) {
        guard let parsed = try? JSONReport.parse(bytes) else { return }
        for format in ReportFormat.allCases {
            _ = try? ReportWriter.render(
                parsed.result, info: parsed.info, format: format, templates: nil, coverage: parsed.coverage)
        }
        _ = TextReport.render(parsed.result, info: parsed.info, options: .init(maxPerRule: 1, quiet: true, color: true))
        if let baseline {
            let (result, outcome) = baseline.apply(to: parsed.result)
            var info = parsed.info
            info.baseline = outcome
            _ = try? ReportWriter.render(result, info: info, format: .text, templates: nil, coverage: parsed.coverage)
        }
        // `fanout report --format json` writes what `fanout report` reads, and the same bytes again.
        let json = JSONReport.render(parsed.result, info: parsed.info, coverage: parsed.coverage)
        let again: ParsedReport
        do {
            again = try Array(json.utf8).withUnsafeBytes { try JSONReport.parse($0) }
        } catch {
            fatalError("a JSON report Fanout wrote does not read back: \(error)\n\(json.prefix(2000))")
        }
        guard JSONReport.render(again.result, info: again.info, coverage: again.coverage) == json else {
            fatalError("a JSON report read back renders differently:\n\(json.prefix(2000))")
        }
    }

    /// The demo's baseline (`fuzz/seeds/baseline-demo.json`), applied to every report read.
    static let baseline: Baseline? = {
        guard let data = FileManager.default.contents(atPath: repository + "/fuzz/seeds/baseline-demo.json") else {
            return nil
        }
        return try? Baseline.parse(String(decoding: data, as: UTF8.self))
    }()

    // MARK: History files

    private static func history(_ text: String) {
        guard let records = try? HistoryRecord.parse(text) else { return }
        for settings in [
            HistoryTrend.Settings(), HistoryTrend.Settings(factor: 1.01, window: HistoryTrend.Settings.minimumRuns),
        ] {
            let trend = HistoryTrend(records, settings: settings)
            _ = try? HistoryWriter.render(trend, format: .text)
            _ = try? HistoryWriter.render(trend, format: .html, templates: builtin)
            _ = try? HistoryWriter.reportSection(trend)
            _ = trend.newestIsFlagged
        }
    }

    // MARK: fanout.toml

    private static func project(_ text: String) {
        guard let config = try? ProjectConfig.parse(text, file: "fanout.toml") else { return }
        for schema in [nil] + Presets.all { try? config.checkRules(schema: schema) }
        _ = config.history?.settings
    }

    // MARK: Templates

    /// The built-in templates, for the renderers given no template of the input's.
    static let builtin = try? TemplateSet()

    /// The demo export (`Content/demo-export.json`), read and derived once, which the input's templates render.
    static let demo: (dataset: Dataset, derived: DerivedData)? = {
        guard let dataset = try? ExportLoader.load(path: repository + "/Content/demo-export.json", schema: nil) else {
            FileHandle.standardError.write(Data("RenderFuzz: the demo export cannot be read\n".utf8))
            return nil
        }
        return (dataset, DerivedData(dataset))
    }()

    /// Every built-in template's name (`timeline.mustache`, …), from the repository's `Templates/`, which the
    /// built-in ones are made from.
    static let templateNames: [String] = {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: repository + "/Templates")) ?? [])
            .filter { $0.hasSuffix(".mustache") }.sorted()
        if names.isEmpty { FileHandle.standardError.write(Data("RenderFuzz: no template in Templates/\n".utf8)) }
        return names
    }()

    private static func template(_ text: String) {
        // Checked for each input: its findings' values, kept in a static, are boxes LeakSanitizer cannot trace.
        guard let (dataset, derived) = demo else { return }
        let demo = (
            dataset: dataset, derived: derived, audit: Audit.run(CheckContext(dataset: dataset, derived: derived))
        )
        let root = FuzzInput.scratch + "/render"
        let everyTemplate = root + "/every-template"
        let partial = root + "/partial"
        let content = root + "/content"
        for folder in [everyTemplate, partial, content] {
            try? FileManager.default.removeItem(atPath: folder)
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        for name in templateNames {
            _ = FileManager.default.createFile(atPath: "\(everyTemplate)/\(name)", contents: Data(text.utf8))
        }
        _ = FileManager.default.createFile(atPath: partial + "/post-card.mustache", contents: Data(text.utf8))
        _ = FileManager.default.createFile(atPath: content + "/about.md", contents: Data(text.utf8))

        // Each folder read as few times as the paths need: swift-foundation's `String(contentsOfFile:encoding:)`
        // leaks a page a file on Linux (fuzz/lsan.supp).
        _ = try? TemplateSet(overrides: everyTemplate, strict: true)
        for engine in [TemplateEngine.fanout, .swiftMustache] {
            guard let set = try? TemplateSet(overrides: everyTemplate, engine: engine) else { continue }
            for format in [ReportFormat.html, .markdown] {
                _ = try? ReportWriter.render(
                    demo.audit, info: ReportInfo(exportName: "demo-export.json", schemaName: demo.dataset.schema.name),
                    format: format, templates: set)
            }
            if engine == .fanout { build(demo, templates: set, content: nil, kinds: nil, into: root + "/site-every") }
        }
        // The pages that show post cards, and those that show the Markdown pages.
        if let set = try? TemplateSet(overrides: partial) {
            build(
                demo, templates: set, content: nil, kinds: ["timelines", "posts", "profiles", "liked"],
                into: root + "/site-partial")
        }
        if let builtin {
            build(demo, templates: builtin, content: content, kinds: ["pages", "index"], into: root + "/site-content")
        }
    }

    /// `fanout build` of the demo with `templates` and the Markdown pages in `content`, from an empty folder: the
    /// pages of `kinds` (`--pages`), every kind when nil.
    private static func build(
        _ demo: (dataset: Dataset, derived: DerivedData, audit: AuditResult), templates: TemplateSet,
        content: String?, kinds: [String]?, into out: String
    ) {
        try? FileManager.default.removeItem(atPath: out)
        var options = SiteOptions(
            title: "Fuzz", exportName: "demo-export.json", contentDirectory: content,
            pageKinds: kinds.map { Set($0.compactMap(PageKind.init(rawValue:))) } ?? Set(PageKind.allCases),
            perPage: 3, baseURL: "https://fuzz.example/")
        options.trend = trend
        let builder = SiteBuilder(
            dataset: demo.dataset, derived: demo.derived, audit: demo.audit, options: options, templates: templates)
        _ = try? builder.build(into: out, force: true)
    }

    /// The trend of the history seed, which the report page shows.
    static let trend: String? = {
        guard let data = FileManager.default.contents(atPath: repository + "/fuzz/seeds/history-demo.ndjson"),
            let records = try? HistoryRecord.parse(String(decoding: data, as: UTF8.self)), !records.isEmpty
        else { return nil }
        return try? HistoryWriter.reportSection(HistoryTrend(records))
    }()

    /// The repository's root, found from this file's place in it, where `make fuzz` and the replayer run.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
}
