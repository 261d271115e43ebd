/// How a list of posts splits into pages, and the navigation values a page's template sees.
///
/// Every page of a paginated list lives in the same folder, so its links are bare file names and stay
/// relative whatever the site's location.
struct Pagination {
    /// Items per page (at least 1).
    let perPage: Int
    /// The number of items in the whole list.
    let count: Int

    /// The number of pages: an empty list still has one page, which says it is empty.
    var pageCount: Int { max(1, (count + perPage - 1) / perPage) }

    /// The indexes into the list that page `page` (from 1) shows.
    func range(of page: Int) -> Range<Int> {
        let start = min(count, (page - 1) * perPage)
        return start..<min(count, start + perPage)
    }

    /// Template values for page `page`; `file` names a page's file. Empty when there is only one page, so
    /// templates show no navigation then. Numbers are grouped by thousands (``CountText``).
    func values(page: Int, file: (Int) -> String) -> [String: Any] {
        guard pageCount > 1 else { return [:] }
        var nav: [String: Any] = [
            "pageNumber": CountText.grouped(page), "pageCount": CountText.grouped(pageCount),
            "pages": (1...pageCount).map { n -> [String: Any] in
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
