import FanoutCore

/// Renders one page of the site to its path and text.
struct PageRenderer: @unchecked Sendable {
    let views: SiteViews
    let templates: TemplateSet
    let audit: AuditResult
    let info: ReportInfo
    let pages: [ContentPage]
    let liveUsers: [Int]

    private var dataset: Dataset { views.dataset }
    private var derived: DerivedData { views.derived }
    private var links: SiteLinks { views.links }

    func render(_ job: SiteBuilder.Job) throws(RenderError) -> (String, String) {
        switch job {
        case .index: return try index()
        case .report:
            let path = "report.html"
            return (path, try templates.render(views.page(path, title: "Validation report", ReportView.context(audit, info: info)), template: "report"))
        case .reportMarkdown:
            let path = "report.md"
            return (path, try templates.render(views.page(path, title: "Validation report", ReportView.context(audit, info: info)), template: "report.md"))
        case .reportJSON:
            return ("report.json", JSONReport.render(audit, info: info))
        case .timeline(let u): return try timeline(u, markdown: false)
        case .timelineMarkdown(let u): return try timeline(u, markdown: true)
        case .profile(let u): return try profile(u)
        case .post(let p): return try post(p)
        case .content(let i):
            let page = pages[i]
            let path = "\(SafeFileName.forKey(page.name)).html"
            return (path, try templates.render(views.page(path, title: page.title, ["contentHTML": CommonMark.html(page.markdown)]), template: "page"))
        case .asset(let name):
            return (name, templates.assets[name] ?? "")
        }
    }

    private func index() throws(RenderError) -> (String, String) {
        let path = "index.html"
        let ordered = liveUsers.sorted { derived.userRank[$0] < derived.userRank[$1] }
        let users: [[String: Any]] = ordered.map { u in
            let key = dataset.users[u].key
            return [
                "username": views.username(u), "timelineHref": links.timeline(key), "profileHref": links.profile(key),
                "postCount": derived.ownPosts[u].count, "timelineCount": derived.timelines[u].count,
                "followerCount": derived.followers[u].count,
                "followingCount": derived.followedKeys[u].filter { $0 != key }.count,
            ]
        }
        var values: [String: Any] = [
            "users": users, "userCount": users.count, "postCount": derived.postIndexByKey.count { $0 >= 0 },
            "likeCount": derived.likers.values.count, "findingCount": audit.findings.count,
        ]
        if let intro = pages.first(where: { $0.name == "index" }) { values["intro"] = CommonMark.html(intro.markdown) }
        return (path, try templates.render(views.page(path, title: "Users", values), template: "index"))
    }

    private func timeline(_ u: Int, markdown: Bool) throws(RenderError) -> (String, String) {
        let key = dataset.users[u].key
        let path = markdown ? links.timelineMarkdown(key) : links.timeline(key)
        let posts = derived.timelines[u].map { views.postCard(Int($0), viewer: u) }
        let values: [String: Any] = [
            "timelineUID": dataset.key(key), "username": views.username(u), "uid": dataset.key(key),
            "posts": posts, "postCount": posts.count,
        ]
        let context = views.page(path, title: "\(views.username(u))’s timeline", values)
        return (path, try templates.render(context, template: markdown ? "timeline.md" : "timeline"))
    }

    private func profile(_ u: Int) throws(RenderError) -> (String, String) {
        let user = dataset.users[u]
        let path = links.profile(user.key)
        let following = derived.followedKeys[u].filter { $0 != user.key }
            .map { views.person($0) }
            .sorted { ($0["name"] as? String ?? "") < ($1["name"] as? String ?? "") }
        var values: [String: Any] = [
            "username": views.username(u), "uid": dataset.key(user.key),
            "posts": derived.ownPosts[u].map { views.postCard(Int($0), viewer: u) },
            "postCount": derived.ownPosts[u].count,
            "followers": derived.followers[u].map { views.person(dataset.users[Int($0)].key) },
            "followerCount": derived.followers[u].count,
            "following": following, "followingCount": following.count,
        ]
        if let name = user.name { values["name"] = name }
        return (path, try templates.render(views.page(path, title: views.username(u), values), template: "profile"))
    }

    private func post(_ p: Int) throws(RenderError) -> (String, String) {
        let post = dataset.posts[p]
        let path = links.post(post.key)
        let card = views.postCard(p, viewer: nil)
        let values: [String: Any] = [
            "key": dataset.key(post.key), "post": card, "likeCountText": card["likeCountText"] ?? "",
            "likers": derived.likers[p].map { views.person(dataset.users[Int($0)].key) },
        ]
        return (path, try templates.render(views.page(path, title: "Post \(dataset.key(post.key))", values), template: "post"))
    }
}
