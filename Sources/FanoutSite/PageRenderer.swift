import FanoutCore
import FanoutReports
import FanoutTemplates

/// Renders one page of the site to its path and text: what every kind's values are made from, and the steps
/// every page goes through, each led by the page's declaration (``PageDeclaration``).
struct PageRenderer: @unchecked Sendable {
    let views: SiteViews
    let templates: TemplateSet
    let audit: AuditResult
    let info: ReportInfo
    let pages: [ContentPage]
    /// The files of the templates that are not templates (`style.css`), sorted: the items of ``PageSubject/asset``.
    let assetNames: [String]
    /// The users that have pages, by username: the index's order and the search data's.
    let usersByName: [Int]
    /// Posts per timeline and profile page.
    let perPage: Int
    /// The site's published URL, ending in `/`, for feeds; nil for relative feed links.
    let baseURL: String?
    let cards: CardCache
    /// Hashes for input keys (``inputKey(_:path:)``), made as they are first needed.
    let inputs: PageInputCache
    /// Each user's liked posts in the order their pages list them, made as they are first needed.
    let likedOrder: LikedOrder
    /// Timeline coverage for the report's chart and `report.json`, made once per build while other pages render.
    let coverage: Deferred<TimelineCoverage?>
    /// The history's trend on the report page (``SiteOptions/trend``).
    let trend: String?

    var dataset: Dataset { views.dataset }
    var derived: DerivedData { views.derived }
    var links: SiteLinks { views.links }

    /// Where `job`'s page lives, relative to the site's root: its kind's ``PagePath`` with the item's file name,
    /// for `build`, which writes it there, and `serve`, which answers that path with it (``SitePages/job(at:)``).
    func path(of job: PageJob) -> String {
        let declaration = job.declaration
        return declaration.path.path(name: fileName(declaration.subject, job.item), page: job.page)
    }

    /// The file name of `item` of `subject`, which its kinds' paths hold (``PageSubject``).
    func fileName(_ subject: PageSubject, _ item: Int) -> String {
        switch subject {
        case .site: ""
        case .user: views.userFileNames[item]
        case .post: links.name(dataset.posts[item].key)
        case .content: SafeFileName.forKey(pages[item].name)
        case .asset: assetNames[item]
        }
    }

    /// `job`'s page: its path (``path(of:)``) and its text.
    func render(_ job: PageJob) throws(RenderError) -> (String, String) {
        let source = try source(job)
        return (source.path, try source.render(templates: templates))
    }

    /// What `job`'s page is made from: its template and values, or its text; nothing is rendered yet but what
    /// the values are made of (a `Content/` page's HTML, the report's findings).
    /// `path`: the page's path, when the caller has made it already.
    func source(_ job: PageJob, path: String? = nil) throws(RenderError) -> PageSource {
        let path = path ?? self.path(of: job)
        switch job.declaration.body {
        case .template(let template, let values, _):
            return PageSource(path: path, body: .template(template, try values(self, job, path)))
        case .made(let make):
            return PageSource(path: path, body: try make(self, job, path))
        }
    }

    /// The input key of `job`'s page made from its data (``PageDeclaration/inputKey``), or nil for a kind whose key
    /// hashes its values (``PageSource/inputKey(templates:)``). `path` is the page's path (``path(of:)``).
    func inputKey(_ job: PageJob, path: String) -> UInt64? {
        job.declaration.inputKey?(self, job, path)
    }
}
