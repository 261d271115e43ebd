import FanoutTemplates

/// How a list (a timeline's posts, the index's users) splits into pages, and the navigation values a page's
/// template sees.
struct Pagination {
    /// Items per page (at least 1).
    let perPage: Int
    /// The number of items in the whole list.
    let count: Int

    /// The number of pages: an empty list still has one page, which says it is empty.
    var pageCount: Int { max(1, (count + perPage - 1) / perPage) }

    /// Lists of at most this many pages link every page; longer ones link the first, the last and the
    /// ``window`` pages either side of the current one, with a gap between (docs/site.md "Pages, feeds and the
    /// sitemap"), so that a page of a 4,000-page index does not carry 4,000 links.
    static let allPagesUpTo = 9
    /// Pages linked either side of the current one in a long list.
    static let window = 2

    /// The indexes into the list that page `page` (from 1) shows.
    func range(of page: Int) -> Range<Int> {
        let start = min(count, (page - 1) * perPage)
        return start..<min(count, start + perPage)
    }

    /// The page numbers page `page` links, in order, nil where pages are left out.
    func linkedPages(from page: Int) -> [Int?] {
        guard pageCount > Self.allPagesUpTo else { return Array(1...pageCount) }
        let shown = Set([1, pageCount]).union(max(1, page - Self.window)...min(pageCount, page + Self.window))
        var numbers: [Int?] = []
        for n in shown.sorted() {
            if let last = numbers.last ?? nil, n > last + 1 { numbers.append(nil) }
            numbers.append(n)
        }
        return numbers
    }

    /// Template values for page `page`; `file` gives the link from this page to page n. Empty when there is
    /// only one page, so templates show no navigation then. `labels` are the words of the links to the
    /// previous and next page (a timeline's go to newer and older posts). Numbers are grouped by thousands
    /// (``CountText``).
    func values(
        page: Int, labels: (prev: String, next: String) = ("← Newer", "Older →"), file: (Int) -> String
    ) -> [String: Any] {
        guard pageCount > 1 else { return [:] }
        var nav: [String: Any] = [
            "pageNumber": CountText.grouped(page), "pageCount": CountText.grouped(pageCount),
            "prevText": labels.prev, "nextText": labels.next,
            "pages": linkedPages(from: page).map { n -> [String: Any] in
                guard let n else { return ["gap": true] }
                var item: [String: Any] = ["number": CountText.grouped(n), "href": file(n)]
                if n == page { item["current"] = true }
                return item
            },
        ]
        if page > 1 { nav["prevHref"] = file(page - 1) }
        if page < pageCount { nav["nextHref"] = file(page + 1) }
        return [
            "pagination": nav, "firstPost": CountText.grouped(range(of: page).lowerBound + 1),
            "lastPost": CountText.grouped(range(of: page).upperBound),
        ]
    }
}
