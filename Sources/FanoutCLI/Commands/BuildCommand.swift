import ArgumentParser
import FanoutCore
import FanoutImport
import FanoutOutput
import FanoutReports
import FanoutSite
import FanoutTemplates
import Foundation

/// `fanout build`: renders the static feed site.
struct BuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Render the static feed site: timelines (HTML and Markdown), profiles, posts and the report.",
        discussion: """
            The site is written to a temporary folder next to --out and moved into place when complete, so a \
            failed run leaves the previous site as it was; --out holds the site alone, and what the next build \
            reads is kept in --cache-dir. Fanout refuses to replace a non-empty folder it did not create. Markdown pages in --content become pages of the site (index.md introduces the home \
            page); templates in --templates override the built-in ones file by file. Inside a site project \
            (see `fanout init`), fanout.toml supplies the export, schema, title, base_url, per_page, out and \
            cache_dir; \
            options given here override it.
            """
    )

    @OptionGroup var input: ExportOptions
    @OptionGroup var rules: RuleOptions
    @OptionGroup var site: SiteArguments

    @Option(name: .shortAndLong, help: "The folder to write the site to. Default: `out` in fanout.toml, else _site.")
    var out: String?

    @Option(
        help: ArgumentHelp(
            "The folder of caches the build keeps what the next build reads in (its manifest and cards), as DIR/NAME "
                + "for --out …/NAME. Default: `cache_dir` in fanout.toml, else \(SiteCache.defaultRoot) beside --out.",
            valueName: "DIR"))
    var cacheDir: String?

    @ArgumentParser.Flag(name: .shortAndLong, help: "List every file written or deleted, and the time each phase took.")
    var verbose = false

    @ArgumentParser.Flag(
        help: "Render and write every page, even those whose input did not change since the last build.")
    var force = false

    @Option(
        help: ArgumentHelp(
            "Exit 1 when a finding is at or above this severity: \(FailOn.listed). "
                + "Default: `fail_on` in fanout.toml, else never."))
    var failOn: FailOn?

    func run() throws {
        // Everything that can be wrong with the command line or its files is found before the export is read.
        let project = try input.project()
        let configuration = try rules.configuration(project, schema: input.layout(project))
        let settings = try site.settings(input, project)
        let out = self.out ?? project.out.map(input.resolve) ?? "_site"
        let cache = SiteCache(output: out, root: cacheDir ?? project.cacheDir.map(input.resolve))
        if let conflict = cache.conflict(withOutput: out) {
            throw UsageError(message: "the site's cache, \(cache.path), \(conflict); give --cache-dir outside it")
        }
        let templateSet = try settings.templates()
        let export = try input.input(project)
        // One build at a time writes `out`, and this one reads what the one before it wrote (docs/commands.md "How
        // outputs are written").
        // Its cache too, which another output may share.
        let lock = OutputLock.taking(out)
        defer { lock.release() }
        let cacheLock = OutputLock.taking(cache.path)
        defer { cacheLock.release() }
        // The previous build's manifest and card store read, and its folder walked, while the export is read: they
        // need only the paths (docs/site.md "Rebuilds, progress and timings").
        let prefetch = SitePrefetch(path: out, cache: cache, force: force)
        let analysis = try Analysis(export, configuration: configuration)
        var builder = SiteBuilder(
            dataset: analysis.dataset, derived: analysis.derived, audit: analysis.audit,
            options: settings.options(exportName: export.path), templates: templateSet)
        // For `bench/rebuild`: each page's time, to compare a rebuild's pages with the same pages of a full build.
        let pageTimesFile = ProcessInfo.processInfo.environment["FANOUT_PAGE_TIMES"]
        builder.recordsPageTimes = pageTimesFile != nil
        let summary = try PhaseClock.measure("render") {
            try builder.build(into: out, cache: cache, force: force, prefetched: prefetch) { done, total in
                TerminalProgress.shared.update(done: min(done, total), total: total)
            }
        }
        if let pageTimesFile {
            let lines = summary.pageTimes.map { String(format: "%.9f", $0.seconds) + "\t" + $0.path + "\n" }
            try AtomicFile.write(lines.joined(), to: pageTimesFile)
        }
        let info = ReportInfo(
            exportName: export.path, schemaName: analysis.dataset.schema.name,
            namespaces: try FirestoreExport.databaseNamespaces(export.path))
        printStatus("\(out)/: " + Self.describe(summary) + " — " + TextReport.summaryLine(analysis.audit, info: info))
        if verbose {
            for file in summary.written { printStatus("  wrote \(file)") }
            for file in summary.deleted { printStatus("  deleted \(file)") }
            printStatus(
                "  cards: \(CountText.grouped(summary.cardsRendered)) rendered, "
                    + "\(CountText.grouped(summary.cardsReused)) read from the previous build")
            printStatus(
                "  feed entries: \(CountText.grouped(summary.feedEntriesRendered)) rendered, "
                    + "\(CountText.grouped(summary.feedEntriesReused)) read from the previous build")
            printStatus(
                "  index pages' user lists: \(CountText.grouped(summary.userListsRendered)) rendered, "
                    + "\(CountText.grouped(summary.userListsReused)) read from the previous build")
            printStatus(
                "  time: "
                    + Self.describe(
                        analysis.phases.map { BuildPhase(name: $0.phase, seconds: $0.seconds) } + summary.phases))
            if let pages = summary.phases.first(where: { !$0.byKind.isEmpty }) {
                printStatus("  \(pages.name) by kind: " + Self.describe(kinds: pages.byKind))
            }
        }
        if settings.kinds.contains(.sitemap) && settings.baseURL == nil {
            printStatus(
                "note: no sitemap.xml: a sitemap needs absolute URLs; give --base-url URL (or base_url in fanout.toml)")
        }
        let threshold = (failOn ?? project.failOn ?? .never).threshold
        let failed = threshold.map { analysis.audit.hasFindings(atOrAbove: $0) } ?? false
        releaseInBackground((analysis, builder))
        if failed { throw ExitCode(1) }
    }

    /// "12 pages rendered (10 written, 2 unchanged), 179,528 carried over, 3 deleted".
    static func describe(_ summary: SiteOutput.Summary) -> String {
        CountText.phrase(summary.rendered, "page", "pages") + " rendered ("
            + "\(CountText.grouped(summary.written.count)) written, \(CountText.grouped(summary.unchanged)) unchanged), "
            + "\(CountText.grouped(summary.carriedOver)) carried over, \(CountText.grouped(summary.deleted.count)) deleted"
    }

    /// "timeline 5,146 pages in 0.6843 s (0.1330 ms a page), …, over all threads": each kind's pages and the time
    /// they took, by which a rebuild's pages are compared with a full build's of the same kinds (docs/performance.md
    /// "Rebuilds").
    static func describe(kinds: [BuildPhase]) -> String {
        kinds.map { kind in
            "\(kind.name) \(CountText.phrase(kind.pages, "page", "pages")) in \(String(format: "%.4f", kind.seconds)) s"
                + " (\(String(format: "%.4f", 1000 * kind.seconds / Double(max(1, kind.pages)))) ms a page)"
        }.joined(separator: ", ") + " over all threads"
    }

    /// "read 0.420 s, derive 0.080 s, …, pages 3.10 s (keys 0.400 s, templates 4.50 s, files 1.10 s over all
    /// threads)": milliseconds under a second and tenths of one under a tenth, where a rebuild's rate of rendering is
    /// read from a phase of a few thousandths (docs/performance.md "Rebuilds").
    static func describe(_ phases: [BuildPhase]) -> String {
        func seconds(_ phase: BuildPhase) -> String {
            "\(phase.name) \(String(format: phase.seconds < 0.1 ? "%.4f" : phase.seconds < 1 ? "%.3f" : "%.2f", phase.seconds)) s"
        }
        return phases.map { phase in
            phase.parts.isEmpty
                ? seconds(phase)
                : seconds(phase) + " (" + phase.parts.map(seconds).joined(separator: ", ")
                    + " over all threads)"
        }.joined(separator: ", ")
    }
}
