import Dispatch
import FanoutCore
import FanoutLocked
import Foundation

/// What to build and where.
public struct SiteOptions: Sendable {
    /// The site's title, shown in every page's header.
    public var title: String
    /// The export's name as the user gave it.
    public var exportName: String
    /// The site project's `Content/` folder, if any.
    public var contentDirectory: String?
    /// The kinds of page to write; every kind by default. Assets (`style.css`, `search.js`) are always written.
    public var pageKinds: Set<PageKind>
    /// Posts per timeline and profile page, and users per index page (at least 1).
    public var perPage: Int
    /// The URL the site is published at, ending in `/`, for the absolute URLs of feeds and the sitemap; page
    /// links stay relative either way.
    public var baseURL: String?

    /// The report page's trend section (``HistoryWriter/reportSection(_:)``, HTML), when the project keeps a
    /// history (`history` in fanout.toml, docs/diff-and-history.md); nil leaves the report page as it was.
    public var trend: String?

    /// URLs per sitemap file before `sitemap.xml` becomes an index of several (the protocol's 50,000); lowered
    /// by tests, which then need no site of 50,000 pages to see the split.
    package var sitemapLimit = Sitemap.urlLimit

    /// The number of posts per page when none is configured.
    public static let defaultPerPage = 50

    /// Site options.
    public init(
        title: String = "Fanout", exportName: String, contentDirectory: String? = nil,
        pageKinds: Set<PageKind> = Set(PageKind.allCases), perPage: Int = SiteOptions.defaultPerPage,
        baseURL: String? = nil
    ) {
        self.title = title
        self.exportName = exportName
        self.contentDirectory = contentDirectory
        self.pageKinds = pageKinds
        self.perPage = max(1, perPage)
        self.baseURL = baseURL.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
    }
}

/// Renders the whole static site: every page of the kinds chosen (``PageDeclarations``), then the sitemap.
public struct SiteBuilder: Sendable {
    let dataset: Dataset
    let derived: DerivedData
    let audit: AuditResult
    let options: SiteOptions
    let templates: TemplateSet

    /// A builder for one export.
    public init(
        dataset: Dataset, derived: DerivedData, audit: AuditResult, options: SiteOptions, templates: TemplateSet
    ) {
        self.dataset = dataset
        self.derived = derived
        self.audit = audit
        self.options = options
        self.templates = templates
    }

    /// Renders every page into a staging folder and moves it to `path` (docs/site.md "Rebuilds, progress and timings").
    /// A page whose input key is the one the previous build there recorded is not rendered: its file is carried over. A
    /// page rendered anew whose content came out the same keeps its previous file too. `force`: ignore the previous
    /// build, rendering and writing every page. `progress` is called now and then with the number of pages done and the
    /// total.
    @discardableResult
    public func build(
        into path: String, force: Bool = false, progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil
    ) throws -> SiteOutput.Summary {
        let clock = BuildClock()
        let pages = try clock.measure("prepare") {
            try SitePages(dataset: dataset, derived: derived, audit: audit, options: options, templates: templates)
        }
        let output = try SiteOutput(path: path, force: force)
        do {
            let log = try render(pages, into: output, clock: clock, progress: progress)
            var summary = try clock.measure("commit") { try output.commit(log) }
            summary.phases = clock.phases
            return summary
        } catch {
            output.abandon()
            throw error
        }
    }

    private func render(
        _ pages: SitePages, into output: SiteOutput, clock: BuildClock, progress: (@Sendable (Int, Int) -> Void)?
    ) throws -> SiteOutput.Log {
        let renderer = pages.renderer
        let jobs = pages.jobs
        let start = clock.now
        // Pages are independent: render them on every core, in contiguous chunks.
        let state = Locked(RenderState())
        let chunk = 64
        let chunks = (jobs.count + chunk - 1) / chunk
        DispatchQueue.concurrentPerform(iterations: chunks) { c in
            var work = PageWork()
            var log = SiteOutput.Log()
            defer {
                let done = state.withLock { state in
                    state.finished += chunk
                    state.work.add(work)
                    state.log.merge(log)
                    return state.finished
                }
                progress?(done, jobs.count)
            }
            for i in (c * chunk)..<min(jobs.count, (c + 1) * chunk) where state.withLock({ $0.failure == nil }) {
                do {
                    try emit(jobs[i], renderer: renderer, into: output, work: &work, log: &log)
                } catch {
                    state.withLock { if $0.failure == nil { $0.failure = error } }
                }
            }
        }
        if let failure = state.withLock({ $0.failure }) { throw failure }
        // The sitemap lists every HTML page, so it is written once they all are.
        var (work, log) = state.withLock { ($0.work, $0.log) }
        for file in pages.sitemap() {
            try emit(PageSource(path: file.path, body: .text(file.text)), into: output, work: &work, log: &log)
        }
        clock.record("pages", seconds: clock.now - start, work: work)
        return log
    }

    /// Carries `job`'s page over from the previous build when its input key is unchanged; else renders and
    /// writes it. The key is made from the page's data when it can be (``PageRenderer/inputKey(_:path:)``), so that an
    /// unchanged page costs neither its values nor its rendering; else from its values.
    private func emit(
        _ job: PageJob, renderer: PageRenderer, into output: SiteOutput, work: inout PageWork, log: inout SiteOutput.Log
    ) throws {
        let path = work.timed(\.keys) { renderer.path(of: job) }
        guard let key = work.timed(\.keys, { renderer.inputKey(job, path: path) }) else {
            let source = try work.timed(\.values) { try renderer.source(job, path: path) }
            return try emit(source, into: output, work: &work, log: &log)
        }
        if work.timed(\.files, { output.carryOver(path, inputKey: key, log: &log) }) { return }
        let source = try work.timed(\.values) { try renderer.source(job, path: path) }
        try write(source, inputKey: key, into: output, work: &work, log: &log)
    }

    /// `emit(_:renderer:into:work:log:)` for a page whose key is made from its values (or its text).
    private func emit(_ source: PageSource, into output: SiteOutput, work: inout PageWork, log: inout SiteOutput.Log)
        throws
    {
        let key = work.timed(\.keys) { source.inputKey(templates: templates) }
        if work.timed(\.files, { output.carryOver(source.path, inputKey: key, log: &log) }) { return }
        try write(source, inputKey: key, into: output, work: &work, log: &log)
    }

    private func write(
        _ source: PageSource, inputKey: UInt64, into output: SiteOutput, work: inout PageWork, log: inout SiteOutput.Log
    ) throws {
        let text = try work.timed(\.templates) { try source.render(templates: templates) }
        try work.timed(\.files) { try output.write(text, to: source.path, inputKey: inputKey, log: &log) }
    }
}

/// What the parallel render has done so far.
private struct RenderState {
    var finished = 0
    var failure: (any Error)?
    var work = PageWork()
    var log = SiteOutput.Log()
}
