import FanoutTemplates

/// A page `serve` was asked for, found by its path (``SitePages/requestedPage(at:)``) and not yet rendered: its
/// input key comes first, so that a page already rendered from the same inputs is answered from `serve`'s page
/// cache without making its values or rendering it (docs/serve.md "The page cache").
public struct RequestedPage: Sendable {
    private enum Found: Sendable {
        case job(PageJob)
        /// A sitemap, made to know that it is there.
        case text(String)
    }

    private let renderer: PageRenderer
    private let found: Found
    /// Where the page lives, relative to the site's root.
    public let path: String
    /// The page's input key made from its data, without its values (``PageDeclaration/inputKey``: the kinds a site
    /// has thousands of), cheap enough to make before anything is rendered; nil when the key hashes the page's
    /// values, which ``prepare()`` makes.
    public let dataKey: UInt64?

    init(renderer: PageRenderer, job: PageJob, path: String) {
        self.renderer = renderer
        found = .job(job)
        self.path = path
        dataKey = renderer.inputKey(job, path: path)
    }

    init(renderer: PageRenderer, text: String, path: String) {
        self.renderer = renderer
        found = .text(text)
        self.path = path
        dataKey = nil
    }

    /// The page's values (or text) and its input key, the same key a build compares (``PageSource/inputKey(templates:)``
    /// when it has no ``dataKey``).
    public func prepare() throws(RenderError) -> PreparedPage {
        let source: PageSource
        switch found {
        case .job(let job): source = try renderer.source(job, path: path)
        case .text(let text): source = PageSource(path: path, body: .text(text))
        }
        return PreparedPage(
            source: source, templates: renderer.templates,
            inputKey: dataKey ?? source.inputKey(templates: renderer.templates))
    }
}

/// A ``RequestedPage`` with its values made: its input key, and its bytes when rendered.
public struct PreparedPage {
    let source: PageSource
    let templates: TemplateSet
    /// A hash of everything the page shows: two pages with the same key have the same bytes (docs/site.md
    /// "Rebuilds, progress and timings").
    public let inputKey: UInt64

    /// The page's UTF-8 bytes, as `build` writes them to its file.
    public func renderBytes() throws(RenderError) -> [UInt8] { try source.renderBytes(templates: templates) }
}
