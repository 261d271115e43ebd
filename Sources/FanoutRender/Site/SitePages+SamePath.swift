import Foundation

extension SitePages {
    /// Fails when two pages of the site would be written to the same file, naming both: a `Content/` page, a
    /// template folder's asset and the site's own top-level pages share the site's root (`Content/report.md`
    /// becomes `report.html`, the validation report's file). Without this, the file would hold whichever page
    /// was written last, and each rebuild would flip between them.
    func checkDistinctPaths(contentDirectory: String?) throws(RenderError) {
        // The jobs ``jobs`` puts at the site's root; the index's other pages are under `page/`.
        let topLevel = (kinds.contains(.index) ? [.index(page: 1)] : []) + searchAndReportJobs + contentAndAssetJobs
        var first: [String: SiteBuilder.Job] = [:]
        for job in topLevel {
            let path = renderer.path(of: job)
            if let earlier = first.updateValue(job, forKey: path) {
                throw .samePath(path: path, first: origin(of: earlier, contentDirectory), second: origin(of: job, contentDirectory))
            }
        }
        // The sitemap's files: `sitemap.xml`, and `sitemap-N.xml` when it is an index.
        if kinds.contains(.sitemap), baseURL != nil,
            let asset = first.keys.sorted().first(where: { $0.wholeMatch(of: /sitemap(-[0-9]+)?\.xml/) != nil })
        {
            throw .samePath(path: asset, first: origin(of: first[asset]!, contentDirectory), second: "the sitemap")
        }
    }

    /// Where `job`'s page comes from, as a user would look for it.
    private func origin(of job: SiteBuilder.Job, _ contentDirectory: String?) -> String {
        switch job {
        case .index: "the index"
        case .searchJSON: "the search data"
        case .searchScript: "the search script's data"
        case .report: "the validation report"
        case .reportMarkdown: "the Markdown report"
        case .reportJSON: "the JSON report"
        case .content(let i): ((contentDirectory ?? "") as NSString).appendingPathComponent(renderer.pages[i].name + ".md")
        case .asset(let name): renderer.templates.assetOrigins[name] ?? name
        case .timeline, .timelineMarkdown, .profile, .feed, .post: renderer.path(of: job)
        }
    }
}
