/// A value a template may look up by name, and what it holds; a list's or an object's own values are its
/// ``fields``.
struct TemplateVariable: Sendable, Equatable {
    let name: String
    let meaning: String
    var fields: [TemplateVariable] = []

    init(_ name: String, _ meaning: String, _ fields: [TemplateVariable] = []) {
        self.name = name
        self.meaning = meaning
        self.fields = fields
    }

    /// This name and those of its fields, at every depth.
    var allNames: [String] { [name] + fields.flatMap(\.allNames) }
}

/// Every value the code gives each template, with what it means: the list docs/template-variables.md shows
/// (generated from here by `make docs`; tests check that rendering gives exactly these and that the page is
/// current) and that `fanout build --strict` checks templates against.
///
/// A template sees the values of the page it is rendered for: its own, those of every page
/// (``everyPage``) if it is a page, and, as a partial or a parent (`layout`), those of the templates that
/// include it.
enum TemplateVariables {
    /// What every page of the site gets, besides its own values.
    static let everyPage: [TemplateVariable] = [
        .init("siteTitle", "the site's title (`--title`, `title` in fanout.toml)"),
        .init("title", "the page's title"),
        .init("root", "the way back to the site's root from the page (`../../`), to prefix links with"),
        .init("exportName", "the export's file name as given"),
        .init("schemaName", "the layout the export was read with"),
        .init(
            "navPages", "the pages of `Content/` other than `index.md`, in `order`",
            [
                .init("href", "the page's file"), .init("title", "its title"),
            ]),
    ]

    /// The templates that are pages (and so get ``everyPage``): those of the declared kinds of page.
    static let pages = Set(PageDeclarations.all.compactMap(\.template))

    static let person: [TemplateVariable] = [
        .init("name", "the username (else display name, else uid)"),
        .init("href", "their profile page; absent for a user who does not exist"),
    ]

    static let pagination: [TemplateVariable] = [
        .init(
            "pagination", "present when the list spans several pages",
            [
                .init("pageNumber", "this page's number, from 1"),
                .init("pageCount", "the number of pages"),
                .init(
                    "pages",
                    "the pages linked: every page up to 9, else the first, the last and two either side of this one",
                    [
                        .init("number", "its number"), .init("href", "its file"), .init("current", "true on this page"),
                        .init(
                            "gap", "true in place of the pages left out between two linked ones (no number, no link)"),
                    ]),
                .init("prevHref", "the previous page (newer posts, or the users before); absent on the first"),
                .init("nextHref", "the next page (older posts, or the users after); absent on the last"),
                .init("prevText", "the words of the link to the previous page: `← Newer`, on the index `← Previous`"),
                .init("nextText", "the words of the link to the next page: `Older →`, on the index `Next →`"),
            ])
    ]

    /// A paginated list of posts: the navigation and where the page's posts are in the whole list.
    static let postPagination: [TemplateVariable] =
        pagination + [
            .init("firstPost", "the position of the page's first post in the whole list, from 1; with pagination"),
            .init("lastPost", "the position of its last post; with pagination"),
        ]

    static let postItems: TemplateVariable = .init(
        "posts", "the page's posts, newest first",
        [
            .init("key", "the post's key"),
            .init("card", "the post's card, rendered by `post-card.mustache` (insert unescaped: `{{{card}}}`)"),
            .init("cardMarkdown", "the card rendered by `post-card.md.mustache`"),
            .init("liked", "whether the page's user likes the post"),
            .init("heart", "the heart, rendered by `heart.mustache` for the page's user"),
        ])

    static let card: [TemplateVariable] = [
        .init("root", "the way back to the site's root from the page showing the card"),
        .init("key", "the post's key"),
        .init("postHref", "the post's page; absent on that page itself"),
        .init("likesHref", "the likers' list on the post's page; absent on that page itself and without likes"),
        .init("posterName", "the poster's name"),
        .init("profileHref", "the poster's profile; absent when the post has no owner"),
        .init("likeCount", "the number of likes counted"),
        .init("likeCountText", "`no likes`, `1 like`, `3 likes`"),
        .init("likersSummary", "`alice, bob and 3 others`; absent without likes"),
        .init("flagged", "true when users flagged the post as inappropriate"),
        .init("isoTime", "the post's time, ISO 8601; absent when undated"),
        .init("displayTime", "the post's time for people, or `undated`"),
        .init("imageURL", "the image's URL (http or https only); absent otherwise"),
        .init(
            "imageHeight",
            "the photo's height at 414 px wide, from `image_height`, to reserve its space; absent when unknown or absurd"
        ),
        .init("captionHTML", "the caption rendered from Markdown (insert unescaped); absent without caption"),
        .init("captionText", "the caption as stored"),
        .init("captionMarkdown", "the caption's Markdown with raw HTML and unsafe links removed, for Markdown twins"),
        .init("storedCountDiffers", "true when the stored like counter disagrees with the likes counted"),
        .init("storedLikeCount", "the stored like counter, when it disagrees"),
        .init("commentCount", "the number of comments on the post's page; absent when the layout has no comments"),
        .init("commentCountText", "`no comments`, `1 comment`, `3 comments`; absent when the layout has no comments"),
        .init("commentsHref", "the comments on the post's page; absent on that page itself and without comments"),
    ]

    static let report: [TemplateVariable] = [
        .init("total", "findings in all"), .init("errors", "findings of severity error"),
        .init("warnings", "findings of severity warning"), .init("infos", "findings of severity info"),
        .init("rulesRun", "the number of rules that ran"),
        .init("totalText", "`1 finding`, `1,234 findings`"), .init("errorsText", "`1 error`, `2 errors`"),
        .init("warningsText", "`1 warning`, `2 warnings`"), .init("infosText", "`3 info`"),
        .init("rulesRunText", "`1 rule ran`, `18 rules ran`"),
        .init(
            "rules", "every rule that ran",
            [
                .init("id", "the rule's id"), .init("severity", "its severity in this run"),
                .init("summary", "what it verifies"),
                .init("explanation", "why its copies drift and how the fix works"),
                .init("count", "its findings"), .init("hasFindings", "whether it has any"),
                .init("mechanical", "whether its fix is mechanical"),
                .init("omitted", "findings beyond the first 1,000, not listed; absent when none"),
                .init(
                    "findings", "its first 1,000 findings",
                    [
                        .init("severity", "the finding's severity"), .init("message", "what is wrong"),
                        .init("paths", "the database paths involved, the one to change first"),
                        .init("expected", "the expected value, as JSON (`—` when absent)"),
                        .init("actual", "the actual value, as JSON"),
                        .init("hasFix", "whether there is a mechanical fix"),
                        .init("fix", "the fix's multi-path update entries, one a line"),
                        .init("pathsCode", "the paths as Markdown code spans"),
                        .init("expectedCode", "the expected value as a Markdown code span"),
                        .init("actualCode", "the actual value as a Markdown code span"),
                        .init("fixCode", "the fix's entries as Markdown code spans"),
                        .init(
                            "hasPageLinks",
                            "whether the finding names users or posts that have pages; never in a standalone report"),
                        .init(
                            "pageLinks",
                            "the site's pages it concerns: each named user's profile and timeline, each named post's page",
                            [
                                .init("text", "`alice’s profile`, `alice’s timeline`, `post -Kx`"),
                                .init("href", "the page, from the site's root"),
                            ]),
                    ]),
            ]),
        .init("hasSkipped", "whether rules were skipped"),
        .init("skipped", "the rules skipped", [.init("rule", "the rule's id"), .init("reason", "why it did not run")]),
        .init("exportNameCode", "the export's name as a Markdown code span"),
        .init("hasNamespaces", "whether the export is an emulator folder of several Realtime Database namespaces"),
        .init("namespacesText", "`Realtime Database namespaces a, b`: those namespaces, when there are several"),
        .init(
            "charts", "the SVG charts (insert unescaped)",
            [
                .init("findingsPerRule", "findings per rule that ran"),
                .init("likeDeltas", "the distribution of like-count deltas; absent without like-count mismatches"),
                .init("coverage", "timeline coverage per user; absent without stored timelines"),
                .init("coverageSummary", "how many timelines are complete, in words"),
            ]),
        .init(
            "baseline", "present with `--baseline`",
            [
                .init("hidden", "findings the baseline hid"), .init("fixedCount", "its entries no finding matched"),
                .init("hiddenText", "`2 known findings`"), .init("fixedText", "`1 of its entries no longer occurs`"),
                .init("hasFixed", "whether there are such entries"),
                .init(
                    "fixed", "those entries",
                    [
                        .init("rule", "the rule"), .init("path", "the path"),
                        .init("pathCode", "the path as a Markdown code span"),
                    ]),
            ]),
    ]

    /// What `standalone.mustache`, the parent of the pages written outside a site, sees from each of them.
    static let standalone: [TemplateVariable] = [
        .init("title", "the page's title: `Diff`, `History`"),
        .init("inlineStyle", "the site's stylesheet (`style.css`), which the page carries inside"),
    ]

    /// `fanout diff --format html`'s page (docs/diff-and-history.md).
    static let diff: [TemplateVariable] =
        standalone + [
            .init("summary", "the summary line: `+3 new errors, 12 fixed; +1,204 likes, −3 users`"),
            .init("oldName", "the older export's name as given"), .init("newName", "the newer export's name"),
            .init("schemaName", "the layout both were read with"),
            .init(
                "data", "every relation of the layout",
                [
                    .init("relation", "the relation's name"), .init("before", "its facts in the old export"),
                    .init("after", "its facts in the new export"), .init("added", "facts added"),
                    .init("removed", "facts removed"), .init("changed", "facts changed"),
                ]),
            .init("hasRules", "whether any rule has findings in either export"),
            .init(
                "rules", "the rules with findings in either export",
                [
                    .init("rule", "the rule's id"), .init("severity", "its severity"),
                    .init("before", "its findings in the old export"), .init("after", "in the new export"),
                    .init("new", "findings new in the new export"), .init("fixed", "findings fixed in it"),
                ]),
            .init(
                "relations", "the relations with changes",
                [
                    .init("index", "the relation's position among all, from 0, for ids"),
                    .init("relation", "its name"), .init("counts", "`3 added, 1 removed, 2 changed`"),
                    .init(
                        "kinds", "its kinds of change with entries: added, removed, changed",
                        [
                            .init("title", "`Added`, `Removed`, `Changed`"),
                            .init(
                                "entries", "the entries listed (`--max-per-rule`)",
                                [
                                    .init("path", "the fact's database path"),
                                    .init(
                                        "description",
                                        "HTML (insert unescaped): `: member old → new, …` for a change, `: member "
                                            + "value, …` for an added or removed fact; empty when nothing is left to show"
                                    ),
                                ]),
                            .init("omitted", "the entries not listed; absent when all are"),
                        ]),
                ]),
            .init(
                "findingSections", "the new findings, then the fixed ones; absent when there are none",
                [
                    .init("id", "`new` or `fixed`"), .init("title", "`New findings`, `Fixed findings`"),
                    .init("count", "the findings"),
                    .init(
                        "groups", "the findings by rule",
                        [
                            .init("rule", "the rule's id"), .init("severity", "its severity"),
                            .init("count", "its findings"),
                            .init(
                                "findings", "those listed (`--max-per-rule`)",
                                [
                                    .init("severity", "the finding's severity"), .init("message", "what is wrong"),
                                    .init("paths", "the database paths involved"),
                                ]),
                            .init("omitted", "the findings not listed; absent when all are"),
                        ]),
                ]),
        ]

    /// The trend of a history: `history-trend.mustache`, which `history.mustache` includes and the site's report
    /// page shows (its `trend`) when the project keeps a history.
    static let historyTrend: [TemplateVariable] = [
        .init("headline", "the lines that sum the runs up"),
        .init("hasAnomalies", "whether any run is flagged"),
        .init("anomalies", "each flagged run and rule, in words"),
        .init(
            "charts", "a chart per rule (on the report page, those with findings in some run)",
            [
                .init("chart", "the SVG column chart of the rule's findings per run (insert unescaped)"),
                .init("rule", "the rule's id"), .init("severity", "its severity in the newest run"),
                .init("flagged", "whether the chart shows flagged runs"),
            ]),
    ]

    /// `fanout history --format html`'s page (docs/diff-and-history.md "History").
    static let history: [TemplateVariable] =
        standalone + [
            .init("trend", "the trend of every rule, which `history-trend.mustache` renders", historyTrend),
            .init("hasRelations", "whether the runs counted relations"),
            .init(
                "relations", "the relations counted",
                [
                    .init("relation", "the relation's name"), .init("first", "its facts in the first run (`–`: none)"),
                    .init("last", "in the newest run"), .init("min", "the fewest in a run"),
                    .init("max", "the most in a run"),
                ]),
            .init(
                "exports", "the exports the runs read, by name",
                [.init("name", "the export's name"), .init("last", "true for the last")]),
        ]

    /// Each template's own values, by template name (its file name without `.mustache`): a page's, as its kind
    /// declares them (``PageDeclarations``), the cards' and the heart's, and those of the pages `fanout diff` and
    /// `fanout history` write. Templates not listed (`layout`, `standalone`, `pagination`, `pagination.md`,
    /// `post-list`) are parents and partials: they see the values of the templates that include them.
    static let own: [String: [TemplateVariable]] = {
        var own: [String: [TemplateVariable]] = [
            "post-card": card, "post-card.md": card, "diff": diff, "history": history, "history-trend": historyTrend,
            "heart": [
                .init("liked", "whether the page's user likes the post"),
                .init("viewerName", "the page's user's name"),
            ],
        ]
        for declaration in PageDeclarations.all {
            if case .template(let name, _, let variables) = declaration.body { own[name] = variables }
        }
        return own
    }()

    /// The names template `name` may look up: its own values, every page's if it is a page, and those of the
    /// templates in `includers` (the ones that include it, at any depth).
    static func names(for name: String, includers: Set<String>) -> Set<String> {
        var names = Set<String>()
        for template in includers.union([name]) {
            names.formUnion((own[template] ?? []).flatMap(\.allNames))
            if pages.contains(template) { names.formUnion(everyPage.flatMap(\.allNames)) }
        }
        return names
    }
}
