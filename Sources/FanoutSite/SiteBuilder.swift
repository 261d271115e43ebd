import Dispatch
import FanoutCore
import FanoutTemplates
import Foundation
import Synchronization

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

    /// The report page's trend section (``HistoryWriter/reportSection(_:templates:)``, HTML), when the project keeps a
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
    /// Whether the summary lists how long each page rendered took (``SiteOutput/Summary/pageTimes``): what
    /// `bench/rebuild` compares a rebuild's pages by with the same pages of a full build (`FANOUT_PAGE_TIMES`,
    /// docs/performance.md "Rebuilds").
    public var recordsPageTimes = false

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

    /// Renders every page into a staging folder and moves it to `path` (docs/site.md "Rebuilds, progress and timings"),
    /// keeping what the next build reads in `cache` (nil: ``SiteCache/defaultRoot`` beside `path`).
    /// A page whose input key is the one the previous build there recorded is not rendered: its file is carried over. A
    /// page rendered anew whose content came out the same keeps its previous file too. `force`: ignore the previous
    /// build, rendering and writing every page. `progress` is called now and then with the number of pages done and the
    /// total.
    /// `prefetched`: the previous build's state, read since ``SitePrefetch`` started reading it for the
    /// same `path`, `cache` and `force` (one made for another is not used).
    @discardableResult
    public func build(
        into path: String, cache: SiteCache? = nil, force: Bool = false, prefetched: SitePrefetch? = nil,
        progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil
    ) throws -> SiteOutput.Summary {
        let clock = BuildClock()
        let cache = cache ?? SiteCache(output: path)
        let prefetch =
            prefetched.flatMap { $0.path == path && $0.cache == cache && $0.force == force ? $0 : nil }
            ?? SitePrefetch(path: path, cache: cache, force: force, background: false)
        // The previous build's cards are read before its folder is claimed, as its pages are made ready before:
        // a bad `Content/` page fails the build before anything is written.
        let (cards, pages) = try clock.measure("prepare") {
            let cards = prefetch.cards()
            let pages = try SitePages(
                dataset: dataset, derived: derived, audit: audit, options: options, templates: templates,
                cardStore: cards)
            return (cards, pages)
        }
        // The previous build's manifest read, and its files looked for in one walk of the folder (on another thread
        // since the prefetch began: then this phase is what is left of it), then the folder claimed.
        let output = try clock.measure("manifest") {
            try SiteOutput(path: path, cards: cards, previous: prefetch.previous())
        }
        do {
            let (log, pageTimes) = try render(pages, into: output, clock: clock, progress: progress)
            var summary = try clock.measure("commit") {
                try output.commit(log, cards: pages.renderer.cards.storeContents())
            }
            summary.phases = clock.phases
            summary.pageTimes = pageTimes
            releaseInBackground((pages, output))
            return summary
        } catch {
            output.abandon()
            throw error
        }
    }

    /// Decides which pages changed, then renders and writes them: what was written and deleted, and each rendered
    /// page's time when ``recordsPageTimes`` (else none).
    private func render(
        _ pages: SitePages, into output: SiteOutput, clock: BuildClock, progress: (@Sendable (Int, Int) -> Void)?
    ) throws -> (log: SiteOutput.Log, pageTimes: [PageTime]) {
        let renderer = pages.renderer
        let jobs = pages.jobs
        // Two phases, each on every core: which pages changed (their input keys, and a look at each carried file),
        // then the changed pages made and written. Timed apart, because a rebuild's rate of rendering is the
        // second's alone (docs/performance.md "Rebuilds").
        // Each range of pages gathers what it did on its own and the ranges are merged in order once all are done:
        // taken for every range, a lock shared by both threads was met in the kernel (a priority-inheriting futex,
        // spinning) for a tenth of a small rebuild's phase (docs/performance.md "Rebuilds").
        var start = clock.now
        let decidedCount = Atomic<Int>(0)
        let decidedRanges = Self.inChunks(jobs.count) { range in
            var decided = Decided()
            for i in range where decided.failure == nil {
                do {
                    if let pending = try decide(
                        jobs[i], renderer: renderer, into: output, work: &decided.work, log: &decided.log)
                    {
                        decided.changed.append(pending)
                    }
                } catch { decided.failure = error }
            }
            decided.carried = range.count - decided.changed.count
            let done = decidedCount.add(decided.carried, ordering: .relaxed).newValue
            progress?(done, jobs.count)
            return decided
        }
        var decided = Decided()
        for range in decidedRanges {
            if let failure = range.failure { throw failure }
            decided.work.add(range.work)
            decided.log.merge(range.log)
            decided.changed += range.changed
            decided.carried += range.carried
        }
        let (carried, changed) = (decided.carried, decided.changed)
        clock.record("decide", seconds: clock.now - start, work: decided.work)

        start = clock.now
        // Whether a page failed, read before every page: the other ranges stop.
        let failed = Atomic<Bool>(false)
        let finished = Atomic<Int>(0)
        let recordsPageTimes = recordsPageTimes
        let renderedRanges = Self.inChunks(changed.count) { range in
            var rendered = RenderState()
            if recordsPageTimes { rendered.work.times = [] }
            defer {
                let done = finished.add(range.count, ordering: .relaxed).newValue
                progress?(carried + done, jobs.count)
            }
            for pending in changed[range] where !failed.load(ordering: .relaxed) {
                let start = PageWork.now()
                defer {
                    let took = PageWork.now() - start
                    rendered.work.page(kind: pending.kind, nanoseconds: took)
                    rendered.work.times?.append(PageTime(path: pending.path, seconds: Double(took) / 1e9))
                }
                do {
                    let source =
                        try pending.source
                        ?? rendered.work.timed(\.values) {
                            try renderer.source(pending.job!, path: pending.path)
                        }
                    try write(
                        source, inputKey: pending.key, into: output, work: &rendered.work, log: &rendered.log,
                        fragments: renderer.cards.fragments)
                } catch {
                    rendered.failure = error
                    failed.store(true, ordering: .relaxed)
                }
            }
            return rendered
        }
        var (work, log) = (PageWork(), decided.log)
        for range in renderedRanges {
            if let failure = range.failure { throw failure }
            work.add(range.work)
            log.merge(range.log)
        }
        // The sitemap lists every HTML page, so it is written once they all are.
        for file in pages.sitemap() {
            let source = PageSource(path: file.path, body: .text(file.text))
            let key = work.timed(\.keys) { source.inputKey(templates: templates) }
            if work.timed(\.files, { output.carryOver(source.path, inputKey: key, log: &log) }) { continue }
            try write(source, inputKey: key, into: output, work: &work, log: &log)
        }
        clock.record("pages", seconds: clock.now - start, work: work)
        return (log, work.times ?? [])
    }

    /// Runs `body` on the ranges of `0..<count`, on every core: pages are independent. 64 at a time, or fewer when
    /// that would leave fewer than 8 ranges a core: a small rebuild in ranges of 64 left a core idle for a fifth
    /// of its phase (docs/performance.md "Rebuilds").
    /// Returns what `body` returned for each range, in order.
    private static func inChunks<Result>(_ count: Int, _ body: @Sendable (Range<Int>) -> Result) -> [Result] {
        let size = max(1, min(64, count / (8 * ProcessInfo.processInfo.activeProcessorCount)))
        let chunks = (count + size - 1) / size
        // Each range writes its own slot, and the slots are read once every range is done.
        nonisolated(unsafe) let results = UnsafeMutableBufferPointer<Result?>.allocate(capacity: chunks)
        results.initialize(repeating: nil)
        defer {
            _ = results.deinitialize()
            results.deallocate()
        }
        DispatchQueue.concurrentPerform(iterations: chunks) { c in
            results[c] = body((c * size)..<min(count, (c + 1) * size))
        }
        return results.map { $0! }
    }

    /// Carries `job`'s page over from the previous build when its input key is unchanged (nil), else says what to
    /// render. The key is made from the page's data when it can be (``PageRenderer/inputKey(_:path:)``), so that an
    /// unchanged page costs neither its values nor its rendering; else from its values, kept for the render.
    private func decide(
        _ job: PageJob, renderer: PageRenderer, into output: SiteOutput, work: inout PageWork,
        log: inout SiteOutput.Log
    ) throws -> Pending? {
        // One reading of the clock between parts rather than two around each: a rebuild decides on every page of
        // the site, and the clock was a twentieth of that (docs/performance.md "Rebuilds").
        let start = PageWork.now()
        let path = renderer.path(of: job)
        let lookUp = output.lookUp(path)
        if let key = renderer.inputKey(job, path: path) {
            let keyed = PageWork.now()
            let carried = output.carryOver(path, inputKey: key, lookUp: lookUp, log: &log)
            let looked = PageWork.now()
            work.keys += keyed - start
            work.files += looked - keyed
            if carried { return nil }
            return Pending(path: path, key: key, kind: job.kind, job: job, source: nil)
        }
        work.keys += PageWork.now() - start
        let source = try work.timed(\.values) { try renderer.source(job, path: path) }
        let key = work.timed(\.keys) { source.inputKey(templates: templates) }
        if work.timed(\.files, { output.carryOver(path, inputKey: key, log: &log) }) { return nil }
        return Pending(path: path, key: key, kind: job.kind, job: nil, source: source)
    }

    private func write(
        _ source: PageSource, inputKey: UInt64, into output: SiteOutput, work: inout PageWork,
        log: inout SiteOutput.Log,
        fragments: FragmentCache? = nil
    ) throws {
        let bytes = try work.timed(\.templates) { try source.renderBytes(templates: templates, fragments: fragments) }
        try work.timed(\.files) { try output.write(bytes, to: source.path, inputKey: inputKey, log: &log) }
    }
}

/// The previous build's state (its card store and manifest, in the site's cache, and which of its files are still in
/// the folder), read on another thread from when it is made, for a build into the same folder to use
/// (``SiteBuilder/build(into:cache:force:prefetched:progress:)``): it needs only the paths, so `fanout build` starts it
/// before reading the export, and a rebuild's reading of it overlaps the export's (docs/site.md "Rebuilds, progress and
/// timings"). It only reads: the folder is claimed, and a folder that is not Fanout's refused, by the build, as
/// without it.
public final class SitePrefetch: @unchecked Sendable {  // each part is written once, before its group is left
    let path: String
    let cache: SiteCache
    let force: Bool
    /// Whether the parts are read on another thread; else on the caller's, when asked for.
    private let background: Bool
    private let cardsRead = DispatchGroup()
    private let previousRead = DispatchGroup()
    private var cardStore: CardStore?
    private var previousBuild: SiteOutput.Previous?

    /// Starts reading what the previous build left at `path` and in its cache (nil: ``SiteCache/defaultRoot`` beside
    /// it) on another thread; `force`: a forced build's, which reads nothing of the previous build.
    public convenience init(path: String, cache: SiteCache? = nil, force: Bool = false) {
        self.init(path: path, cache: cache ?? SiteCache(output: path), force: force, background: true)
    }

    init(path: String, cache: SiteCache, force: Bool, background: Bool) {
        self.path = path
        self.cache = cache
        self.force = force
        self.background = background
        guard background else { return }
        cardsRead.enter()
        previousRead.enter()
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            // The cards first: the build's `prepare` needs them, the manifest only after it.
            cardStore = readCards()
            cardsRead.leave()
            previousBuild = SiteOutput.Previous(path: path, cache: cache, force: force)
            previousRead.leave()
        }
    }

    /// The cards of a cache that describes the folder as it is (``SiteOutput/Previous/describes(path:cache:)``).
    private func readCards() -> CardStore {
        let trusted = !force && SiteOutput.Previous.describes(path: path, cache: cache)
        return trusted ? CardStore.read(in: cache.url) : CardStore()
    }

    /// The previous build's card store (empty when forced), when it has been read.
    func cards() -> CardStore {
        guard background else { return readCards() }
        cardsRead.wait()
        return cardStore!
    }

    /// The previous build's manifest and which of its files are there, when they have been read.
    func previous() -> SiteOutput.Previous {
        guard background else { return SiteOutput.Previous(path: path, cache: cache, force: force) }
        previousRead.wait()
        return previousBuild!
    }
}

/// A page to render: its path, input key and kind, and its job, or its source when making the key made it.
private struct Pending: @unchecked Sendable {  // a source's values are immutable once made
    let path: String
    let key: UInt64
    /// A position in ``PageDeclarations/all``.
    let kind: Int
    let job: PageJob?
    let source: PageSource?
}

/// What deciding which pages of a range changed found.
private struct Decided: @unchecked Sendable {
    var carried = 0
    var changed: [Pending] = []
    var failure: (any Error)?
    var work = PageWork()
    var log = SiteOutput.Log()
}

/// What rendering a range of the changed pages did.
private struct RenderState {
    var failure: (any Error)?
    var work = PageWork()
    var log = SiteOutput.Log()
}
