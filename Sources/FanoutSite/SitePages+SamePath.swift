import FanoutTemplates
import Foundation

extension SitePages {
    /// Fails when two pages of the site would be written to the same file, naming both: a `Content/` page, a
    /// template folder's asset and the site's own top-level pages share the site's root (`Content/report.md`
    /// becomes `report.html`, the validation report's file). Without this, the file would hold whichever page
    /// was written last, and each rebuild would flip between them.
    func checkDistinctPaths(contentDirectory: String?) throws(RenderError) {
        // The pages of every kind whose path may be at the site's root (``PagePath/mayBeAtRoot``), those that are
        // there; every other page is in a folder of its kind's.
        var first: [String: PageJob] = [:]
        for job in jobs({ isChosen($0) && $0.path.mayBeAtRoot }) {
            let path = renderer.path(of: job)
            guard !path.contains("/") else { continue }
            if let earlier = first.updateValue(job, forKey: path) {
                throw .samePath(
                    path: path, first: origin(of: earlier, contentDirectory), second: origin(of: job, contentDirectory))
            }
        }
        // The sitemap's files: `sitemap.xml`, and `sitemap-N.xml` when it is an index.
        if kinds.contains(.sitemap), baseURL != nil,
            let asset = first.keys.sorted().first(where: { $0.wholeMatch(of: /sitemap(-[0-9]+)?\.xml/) != nil })
        {
            throw .samePath(path: asset, first: origin(of: first[asset]!, contentDirectory), second: "the sitemap")
        }
    }

    /// Where `job`'s page comes from, as a user would look for it: its kind's label, the `Content/` file or the
    /// template folder's file it is made from, or its path.
    private func origin(of job: PageJob, _ contentDirectory: String?) -> String {
        let declaration = job.declaration
        if let label = declaration.label { return label }
        switch declaration.subject {
        case .content:
            return ((contentDirectory ?? "") as NSString).appendingPathComponent(renderer.pages[job.item].name + ".md")
        case .asset:
            let name = renderer.assetNames[job.item]
            return renderer.templates.assetOrigins[name] ?? name
        case .site, .user, .post: return renderer.path(of: job)
        }
    }
}
