import FanoutTemplates

/// The values of the index's pages (docs/site.md): `--per-page` users by username, each with uid and counts; the
/// first page also shows `Content/index.md`. Every page has the search box, which `search.js` brings to life.
enum IndexValues {
    static func values(_ r: PageRenderer, _ job: PageJob, path: String) -> [String: Any] {
        let (dataset, derived, page) = (r.dataset, r.derived, job.page)
        let pagination = Pagination(perPage: r.perPage, count: r.usersByName.count)
        let root = SiteLinks.root(of: path)
        let users: [IndexRow] = r.usersByName[pagination.range(of: page)].map { u in
            let (key, name) = (dataset.users[u].key, r.views.userFileNames[u])
            return IndexRow(
                username: r.views.username(u), uid: dataset.key(key),
                timelineHref: PageDeclarations.timelines.path.path(name: name, page: 1),
                profileHref: PageDeclarations.profiles.path.path(name: name, page: 1),
                postCount: CountText.grouped(derived.ownPosts[u].count),
                timelineCount: CountText.grouped(derived.timelines[u].count),
                followerCount: CountText.grouped(derived.followers[u].count { $0 != Int32(u) }),
                followingCount: CountText.grouped(derived.followedKeys[u].count { $0 != key }),
                root: root)
        }
        // Every build writing the index makes every page's values, rendered or not: the store keeps the rows of
        // the pages it does not render too, under the keys their pages render them with.
        r.cards.fragments.register(list: users.map(\.key), named: "users", in: job.declaration.template ?? "index")
        let userCount = r.usersByName.count
        var values: [String: Any] = [
            "users": users, "userCount": CountText.grouped(userCount),
            "usersText": CountText.phrase(userCount, "user", "users"),
        ]
        // The site's totals of posts, likes and findings on the first page alone: on every page, a new post, like
        // or finding changed all of them (every page of the index, where the pages it is about are a few
        // dozen; docs/performance.md "Rebuilds").
        if page == 1 {
            // Counted here, once a build: only this page shows it.
            let postCount = derived.postIndexByKey.count { $0 >= 0 }, likeCount = derived.likers.values.count
            values.merge([
                "summary": true,
                "postCount": CountText.grouped(postCount), "postsText": CountText.phrase(postCount, "post", "posts"),
                "likeCount": CountText.grouped(likeCount), "likesText": CountText.phrase(likeCount, "like", "likes"),
                "findingCount": CountText.grouped(r.audit.findings.count),
                "findingsText": CountText.phrase(r.audit.findings.count, "finding", "findings"),
            ]) { $1 }
        }
        let files = job.declaration.path
        var nav = pagination.values(page: page, labels: ("← Previous", "Next →")) {
            root + files.path(name: "", page: $0)
        }
        if let first = nav.removeValue(forKey: "firstPost"), let last = nav.removeValue(forKey: "lastPost") {
            nav["firstUser"] = first
            nav["lastUser"] = last
        }
        values.merge(nav) { $1 }
        if page == 1, let intro = r.pages.first(where: { $0.name == "index" }) {
            values["intro"] = CommonMark.html(intro.markdown)
        }
        return r.views.page(path, title: "Users" + r.pageSuffix(page, count: userCount), values)
    }

    static let variables: [TemplateVariable] =
        [
            .init(
                "users", "this page's users (`--per-page` a page), by username",
                [
                    .init("username", "the user's name"), .init("uid", "the user's uid"),
                    .init("timelineHref", "their timeline, from the site's root (prefix `root`)"),
                    .init("profileHref", "their profile, from the site's root"), .init("postCount", "their posts"),
                    .init("timelineCount", "the posts on their timeline"), .init("followerCount", "their followers"),
                    .init("followingCount", "the users they follow"),
                ]),
            .init("userCount", "the number of users"),
            .init("summary", "true on the first page, which alone has the site's totals that follow; absent on others"),
            .init("postCount", "the number of posts; on the first page only"),
            .init("likeCount", "the number of likes; on the first page only"),
            .init("findingCount", "the number of findings; on the first page only"),
            .init("intro", "`Content/index.md` rendered (insert unescaped); on the first page only, absent without it"),
            .init("firstUser", "the position of the page's first user among all, from 1; with pagination"),
            .init("lastUser", "the position of its last user; with pagination"),
            .init("usersText", "`1 user`, `6 users`"), .init("postsText", "`10 posts`; on the first page only"),
            .init("likesText", "`18 likes`; on the first page only"),
            .init("findingsText", "`7 findings`; on the first page only"),
        ] + TemplateVariables.pagination
}
