import FanoutTemplates

/// One kind of page, declared once as data (docs/site.md "Adding a kind of page"): where its pages live, what
/// they are made from, how many an item of its subject has, how its input key is made, and whether the sitemap
/// lists it and the search leads to it. `build` (``SitePages/jobs``), `serve`'s lookup by path
/// (``SitePages/job(at:)``), the sitemap, the same-path check and incremental rebuilds all read it; none of them
/// names a kind. Every declaration is in ``PageDeclarations``.
final class PageDeclaration: Sendable {
    /// Its name in the table, unique: its template's, or its file's.
    let name: String
    /// The `--pages` kind that chooses it; nil for files every build writes (the assets).
    let kind: PageKind?
    /// What it has pages of.
    let subject: PageSubject
    /// Where its pages live; its placeholder is its subject's.
    let path: PagePath
    /// What a page is made from.
    let body: Body
    /// The length of the list an item's pages show `--per-page` at a time (a user's timeline); nil for one page per
    /// item.
    let listLength: (@Sendable (PageRenderer, _ item: Int) -> Int)?
    /// The page's input key made from the data its values are made from, without making them: for the kinds a
    /// site has thousands of, so that an unchanged page costs neither its values nor its rendering. Nil: the key
    /// hashes the page's values (``PageSource/inputKey(templates:)``). docs/site.md "Rebuilds, progress and timings".
    let inputKey: (@Sendable (PageRenderer, PageJob, _ path: String) -> UInt64)?
    /// Whether its pages show posts' cards from ``CardCache``, whose links lead back to the root from two folders
    /// deep (`users/<uid>/…`); a build without such pages makes no card cache.
    let showsCards: Bool
    /// Whether the sitemap lists its pages (those that are HTML).
    let inSitemap: Bool
    /// Whether a user the search finds (`search.json`, `serve`'s `/u/<uid>`) is led to the item's first page; one
    /// kind of per-user pages is.
    let inSearch: Bool
    /// What a message calls its page ("the validation report"); nil: the page's path, or where a `Content/` page or
    /// an asset comes from.
    let label: String?

    /// What a page is made from.
    enum Body: Sendable {
        /// A template (its file name without `.mustache`), the values a page gives it, and what those values are
        /// (``TemplateVariables``, docs/template-variables.md).
        case template(
            String, values: @Sendable (PageRenderer, PageJob, _ path: String) throws(RenderError) -> [String: Any],
            variables: [TemplateVariable])
        /// Text made without a template (the search data, the JSON report, a feed, an asset).
        case made(@Sendable (PageRenderer, PageJob, _ path: String) throws(RenderError) -> PageSource.Body)
    }

    init(
        _ name: String, kind: PageKind?, subject: PageSubject, path: PagePath, body: Body,
        listLength: (@Sendable (PageRenderer, Int) -> Int)? = nil,
        inputKey: (@Sendable (PageRenderer, PageJob, String) -> UInt64)? = nil,
        showsCards: Bool = false, inSitemap: Bool = false, inSearch: Bool = false, label: String? = nil
    ) {
        precondition(
            path.first.nameWord == subject.placeholder && (path.other == nil) == (listLength == nil),
            "\(name): the path's placeholder is its subject's; page N has a pattern when the kind has a list")
        self.name = name
        self.kind = kind
        self.subject = subject
        self.path = path
        self.body = body
        self.listLength = listLength
        self.inputKey = inputKey
        self.showsCards = showsCards
        self.inSitemap = inSitemap
        self.inSearch = inSearch
        self.label = label
    }

    /// Its Markdown twin: the same values at the same paths ending in `.md` (`index.md` for `index.html`), given to
    /// the template of its template's name and `.md`, and chosen by the `markdown` kind; neither the sitemap (which
    /// lists HTML) nor the search leads to it.
    func markdownTwin() -> PageDeclaration {
        guard case .template(let template, let values, let variables) = body else {
            preconditionFailure("\(name): only a page made with a template has a Markdown twin")
        }
        return PageDeclaration(
            name + ".md", kind: .markdown, subject: subject, path: path.replacingEnding(".html", with: ".md"),
            body: .template(template + ".md", values: values, variables: variables), listLength: listLength,
            inputKey: inputKey, showsCards: showsCards)
    }

    /// Its template's name, if it has one.
    var template: String? {
        if case .template(let name, _, _) = body { name } else { nil }
    }
}
