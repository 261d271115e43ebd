/// The values of a page of the site project's `Content/` folder (docs/site.md "Site projects"): its Markdown,
/// rendered.
enum ContentValues {
    static func values(_ r: PageRenderer, _ job: PageJob, path: String) -> [String: Any] {
        let content = r.pages[job.item]
        return r.views.page(path, title: content.title, ["contentHTML": CommonMark.html(content.markdown)])
    }

    static let variables: [TemplateVariable] = [.init("contentHTML", "the Markdown page rendered (insert unescaped)")]
}
