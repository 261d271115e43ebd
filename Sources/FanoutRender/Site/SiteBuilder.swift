import Dispatch
import FanoutCore
import Foundation

/// The kinds of page a site has; `--pages` chooses among them.
public enum PageKind: String, CaseIterable, Sendable {
    /// `index.html`.
    case index
    /// `users/<uid>/index.html`.
    case timelines
    /// `users/<uid>/index.md`, the timelines' Markdown twins.
    case markdown
    /// `users/<uid>/profile.html`.
    case profiles
    /// `posts/<key>.html`.
    case posts
    /// `report.html`, `report.md`, `report.json`.
    case report
    /// The pages of `Content/`.
    case pages
}

/// What to build and where.
public struct SiteOptions: Sendable {
    /// The site's title, shown in every page's header.
    public var title: String
    /// The export's name as the user gave it.
    public var exportName: String
    /// The site project's `Content/` folder, if any.
    public var contentDirectory: String?
    /// The kinds of page to write; every kind by default. Assets (`style.css`) are always written.
    public var pageKinds: Set<PageKind>

    /// Site options.
    public init(
        title: String = "Fanout", exportName: String, contentDirectory: String? = nil,
        pageKinds: Set<PageKind> = Set(PageKind.allCases)
    ) {
        self.title = title
        self.exportName = exportName
        self.contentDirectory = contentDirectory
        self.pageKinds = pageKinds
    }
}

/// Renders the whole static site: index, timelines and their Markdown twins, profiles, posts, report, pages.
public struct SiteBuilder: Sendable {
    let dataset: Dataset
    let derived: DerivedData
    let audit: AuditResult
    let options: SiteOptions
    let templates: TemplateSet

    /// A builder for one export.
    public init(dataset: Dataset, derived: DerivedData, audit: AuditResult, options: SiteOptions, templates: TemplateSet) {
        self.dataset = dataset
        self.derived = derived
        self.audit = audit
        self.options = options
        self.templates = templates
    }

    /// One page to render.
    enum Job: Sendable {
        case index, report, reportMarkdown, reportJSON
        case timeline(Int), timelineMarkdown(Int), profile(Int), post(Int), content(Int)
        case asset(String)
    }

    /// Renders every page into a staging folder and moves it to `path`. Pages whose content is the same as in
    /// the previous build there are kept rather than rewritten; the summary says which files were written.
    /// `progress` is called now and then with the number of pages done and the total.
    @discardableResult
    public func build(
        into path: String, progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil
    ) throws(RenderError) -> OutputDirectory.Summary {
        let pages = try ContentPage.load(from: options.contentDirectory ?? "")
        let output = try OutputDirectory(path: path)
        do {
            try render(into: output, pages: pages, progress: progress)
            return try output.commit()
        } catch {
            output.abandon()
            throw error
        }
    }

    private func render(
        into output: OutputDirectory, pages: [ContentPage], progress: (@Sendable (Int, Int) -> Void)?
    ) throws(RenderError) {
        let navPages = pages.filter { $0.name != "index" }
        let info = ReportInfo(exportName: options.exportName, schemaName: dataset.schema.name)
        let common: [String: Any] = [
            "siteTitle": options.title, "exportName": options.exportName, "schemaName": dataset.schema.name,
            "navPages": navPages.map { ["href": "\(SafeFileName.forKey($0.name)).html", "title": $0.title] },
        ]
        let views = SiteViews(dataset: dataset, derived: derived, common: common)
        let kinds = options.pageKinds
        var jobs: [Job] = []
        if kinds.contains(.index) { jobs.append(.index) }
        if kinds.contains(.report) { jobs += [.report, .reportMarkdown, .reportJSON] }
        let liveUsers = dataset.users.indices.filter { derived.user(dataset.users[$0].key) == $0 }
        for u in liveUsers {
            if kinds.contains(.timelines) { jobs.append(.timeline(u)) }
            if kinds.contains(.markdown) { jobs.append(.timelineMarkdown(u)) }
            if kinds.contains(.profiles) { jobs.append(.profile(u)) }
        }
        if kinds.contains(.posts) {
            for p in dataset.posts.indices where derived.post(dataset.posts[p].key) == p { jobs.append(.post(p)) }
        }
        if kinds.contains(.pages) {
            for page in navPages { jobs.append(.content(pages.firstIndex(of: page)!)) }
        }
        for name in templates.assets.keys.sorted() { jobs.append(.asset(name)) }

        let needsCards = !kinds.isDisjoint(with: [.timelines, .markdown, .profiles])
        let renderer = PageRenderer(
            views: views, templates: templates, audit: audit, info: info, pages: pages, liveUsers: liveUsers,
            cards: needsCards ? try CardCache(views: views, templates: templates) : CardCache.empty)
        // Pages are independent: render them on every core, in contiguous chunks.
        let failures = FailureBox()
        let chunk = 64
        let chunks = (jobs.count + chunk - 1) / chunk
        let allJobs = jobs
        let finished = Counter()
        DispatchQueue.concurrentPerform(iterations: chunks) { c in
            defer { progress?(finished.add(chunk), allJobs.count) }
            for i in (c * chunk)..<min(allJobs.count, (c + 1) * chunk) where !failures.failed {
                do throws(RenderError) {
                    let (path, text) = try renderer.render(allJobs[i])
                    try output.write(text, to: path)
                } catch {
                    failures.record(error)
                }
            }
        }
        if let error = failures.first { throw error }
    }
}

/// Counts finished work across threads.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    /// Adds `n` and returns the new total.
    func add(_ n: Int) -> Int { lock.withLock { value += n; return value } }
}

/// The first error of a parallel render.
final class FailureBox: @unchecked Sendable {
    private let lock = NSLock()
    private var error: RenderError?

    var failed: Bool { lock.withLock { error != nil } }
    var first: RenderError? { lock.withLock { error } }

    func record(_ error: RenderError) {
        lock.withLock { if self.error == nil { self.error = error } }
    }
}
