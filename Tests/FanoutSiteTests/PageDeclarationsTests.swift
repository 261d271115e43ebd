import FanoutCore
import FanoutTestSupport
import Foundation
import Testing

@testable import FanoutSite
@testable import FanoutTemplates

/// The kinds of page, declared once (docs/site.md "Adding a kind of page"): what `build` writes and what `serve`
/// finds by path both follow from the declarations, for every kind.
@Suite struct PageDeclarationsTests {
    /// Every page of a site with every kind chosen, paginated, with `Content/` pages.
    static func pages() throws -> SitePages {
        let (dataset, derived) = TemplateVariablesTests.richSite()
        let content = try templateFolder(["index.md": "Welcome.\n", "about.md": "# About\n"])
        // Read when the pages are made.
        defer { try? FileManager.default.removeItem(atPath: content) }
        return try SitePages(
            dataset: dataset, derived: derived, audit: TemplateVariablesTests.audit(),
            options: SiteOptions(
                exportName: "rich.json", contentDirectory: content, perPage: 2, baseURL: "https://example.org/"),
            templates: try TemplateSet(), byPath: true)
    }

    @Test func theTableIsConsistent() {
        let all = PageDeclarations.all
        #expect(Set(all.map(\.name)).count == all.count, "names are unique")
        let searched = all.filter(\.inSearch)
        #expect(
            searched.count == 1 && searched.first?.subject == .user, "the search leads to one kind of per-user page")
        #expect(PageKind.allCases.last == .sitemap && Set(PageKind.allCases).count == PageKind.allCases.count)
        for kind in PageKind.allCases { #expect(PageKind(rawValue: kind.rawValue) == kind) }
        #expect(PageKind(rawValue: "timeline") == nil && PageKind(rawValue: "") == nil)
        // Templates are named after their kind's declaration, so that messages and the variables list agree.
        for declaration in all { if let template = declaration.template { #expect(template == declaration.name) } }
    }

    /// Each page of each kind has a path of its own; `serve`'s lookup finds exactly that page at that path; cards,
    /// cached with links for pages two folders deep, are shown on such pages only.
    @Test func everyPageHasItsOwnPathAndIsFoundByIt() throws {
        let pages = try Self.pages()
        let jobs = pages.jobs
        var seen: [String: PageJob] = [:]
        for job in jobs {
            let path = pages.renderer.path(of: job)
            #expect(seen.updateValue(job, forKey: path) == nil, "\(path): two pages")
            #expect(pages.job(at: path) == job, "\(path): serve finds another page, or none")
            if job.declaration.showsCards { #expect(SiteLinks.root(of: path) == CardCache.root, "\(path)") }
        }
        // Every declared kind has pages on this site, the paginated ones several.
        for (kind, declaration) in PageDeclarations.all.enumerated() {
            let count = jobs.count { $0.kind == kind }
            #expect(count >= (declaration.listLength == nil ? 1 : 2), "\(declaration.name): \(count) pages")
        }
    }

    /// Paths of a page's shape that are not its path are no page: page 1 under page N's pattern, a number written
    /// otherwise, a page past the last, a user who does not exist.
    @Test func nearMissesAreNoPages() throws {
        let pages = try Self.pages()
        for kind in PageDeclarations.all.indices where PageDeclarations.all[kind].listLength != nil {
            let declaration = PageDeclarations.all[kind]
            let last = try #require(pages.jobs.filter { $0.kind == kind }.max { $0.page < $1.page })
            let name = pages.renderer.fileName(declaration.subject, last.item)
            #expect(last.page > 1, "\(declaration.name): a list of several pages")
            let other = try #require(declaration.path.other)
            #expect(pages.job(at: Self.spelled(other, name: name, number: "2")) != nil, "the premise: page 2 is a page")
            for number in ["1", "\(last.page + 1)", "02", "+2", "0"] {
                let path = Self.spelled(other, name: name, number: number)
                #expect(pages.job(at: path) == nil, "\(path)")
            }
            if declaration.subject != .site {
                #expect(pages.job(at: declaration.path.path(name: "no-such-user")) == nil)
            }
        }
    }

    /// `pattern` with `name` and the page number written as `number`.
    static func spelled(_ pattern: PagePath.Pattern, name: String, number: String) -> String {
        pattern.tokens.map { token in
            switch token {
            case .literal(let text): String(decoding: text, as: UTF8.self)
            case .name: name
            case .number: number
            }
        }.joined()
    }

    @Test func patternsRenderAndMatch() {
        let path = PagePath("users/{user}/profile.html", then: "users/{user}/profile-{n}.html")
        #expect(
            path.path(name: "u1") == "users/u1/profile.html"
                && path.path(name: "u1", page: 3) == "users/u1/profile-3.html")
        #expect(path.file(page: 2) == "profile-2.html")
        // A page's file name is its path's last part: at the root the whole path, and a folder's name when the
        // pattern ends in a slash.
        #expect(PagePath("page.html", then: "page-{n}.html").file(page: 4) == "page-4.html")
        #expect(PagePath("{user}/", then: "feed/{n}/").file(page: 2) == "2")
        #expect(path.match("users/a-b~12/profile-12.html")! == ("a-b~12", 12))
        #expect(path.match("users/u1/profile.html")! == ("u1", 1))
        for miss in [
            "users/u1/profile-x.html", "users//profile.html", "users/a/b/profile.html", "users/u1/profile-.html",
            "users/u1/profile.htm",
        ] {
            #expect(path.match(miss) == nil, "\(miss)")
        }
        // A name may hold the literal that follows it.
        #expect(PagePath("{content}.html").match("a.html.html")! == ("a.html", 1))
        #expect(PagePath("{content}.html").mayBeAtRoot && !path.mayBeAtRoot)
        #expect(PagePath("index.html", then: "page/{n}/index.html").mayBeAtRoot)
        // A Markdown twin: the same paths ending in `.md`, its template's name with `.md`, chosen by `markdown`.
        let twin = PageDeclarations.timelineMarkdown
        #expect(
            twin.path.path(name: "u1") == "users/u1/index.md"
                && twin.path.path(name: "u1", page: 2) == "users/u1/page-2.md")
        #expect(twin.template == "timeline.md" && twin.kind == .markdown && !twin.inSitemap && !twin.inSearch)
    }
}
