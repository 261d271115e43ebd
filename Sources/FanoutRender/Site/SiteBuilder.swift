import Dispatch
import FanoutCore
import Foundation

/// What to build and where.
public struct SiteOptions: Sendable {
    /// The site's title, shown in every page's header.
    public var title: String
    /// The export's name as the user gave it.
    public var exportName: String
    /// The site project's `Content/` folder, if any.
    public var contentDirectory: String?

    /// Site options.
    public init(title: String = "Fanout", exportName: String, contentDirectory: String? = nil) {
        self.title = title
        self.exportName = exportName
        self.contentDirectory = contentDirectory
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

    /// Renders every page into a staging folder and moves it to `path`. Returns the number of files written.
    @discardableResult
    public func build(into path: String) throws(RenderError) -> Int {
        let pages = try ContentPage.load(from: options.contentDirectory ?? "")
        let output = try OutputDirectory(path: path)
        do {
            let count = try render(into: output, pages: pages)
            try output.commit()
            return count
        } catch {
            output.abandon()
            throw error
        }
    }

    private func render(into output: OutputDirectory, pages: [ContentPage]) throws(RenderError) -> Int {
        let navPages = pages.filter { $0.name != "index" }
        let info = ReportInfo(exportName: options.exportName, schemaName: dataset.schema.name)
        let common: [String: Any] = [
            "siteTitle": options.title, "exportName": options.exportName, "schemaName": dataset.schema.name,
            "navPages": navPages.map { ["href": "\(SafeFileName.forKey($0.name)).html", "title": $0.title] },
        ]
        let views = SiteViews(dataset: dataset, derived: derived, common: common)
        var jobs: [Job] = [.index, .report, .reportMarkdown, .reportJSON]
        let liveUsers = dataset.users.indices.filter { derived.user(dataset.users[$0].key) == $0 }
        for u in liveUsers { jobs += [.timeline(u), .timelineMarkdown(u), .profile(u)] }
        for p in dataset.posts.indices where derived.post(dataset.posts[p].key) == p { jobs.append(.post(p)) }
        for i in navPages.indices { jobs.append(.content(pages.firstIndex(of: navPages[i])!)) }
        for name in templates.assets.keys.sorted() { jobs.append(.asset(name)) }

        let renderer = PageRenderer(
            views: views, templates: templates, audit: audit, info: info, pages: pages, liveUsers: liveUsers)
        // Pages are independent: render them on every core, in contiguous chunks.
        let failures = FailureBox()
        let chunk = 64
        let chunks = (jobs.count + chunk - 1) / chunk
        let allJobs = jobs
        DispatchQueue.concurrentPerform(iterations: chunks) { c in
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
        return jobs.count
    }
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
