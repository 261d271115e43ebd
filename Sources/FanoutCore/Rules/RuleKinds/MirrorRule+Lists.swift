import FanoutJSON

/// A mirror whose rows are each the bare key of an end (`users/{poster}/posts/{i}` with `post = "."`,
/// `users/{target}/followers/{id}` with `user = "."`): a list of IDs, as Firestore arrays and Realtime Database
/// lists store them. A missing entry is a new element, written at the list's next index, after the elements it
/// has, in the order of the keys it adds (their bytes), so that a repair appends rather than writing a key of its
/// own (`{i}`, or the added key).
extension MirrorRule {
    /// `found` with each missing entry whose mirror path ends in `/{capture}` placed at its list's next index;
    /// `elementPaths` gives the path of every element the mirror has, to count each list's.
    func numberingListEntries(_ found: [Finding], capture: String, elementPaths: () -> [String]) -> [Finding] {
        let suffix = "/{\(capture)}"
        let missing = found.indices.filter { found[$0].paths.first?.hasSuffix(suffix) == true }
        guard !missing.isEmpty else { return found }
        var counts: [Substring: Int] = [:]
        for path in elementPaths() { counts[path[..<(path.lastIndex(of: "/") ?? path.startIndex)], default: 0] += 1 }
        func added(_ finding: Finding) -> String {
            if case .string(let key)? = finding.expected { return key }
            return ""
        }
        var numbered = found
        let byList = Dictionary(grouping: missing) { found[$0].paths[0].dropLast(suffix.count) }
        for (list, indices) in byList {
            let ordered = indices.sorted { added(found[$0]).utf8.lexicographicallyPrecedes(added(found[$1]).utf8) }
            for (rank, i) in ordered.enumerated() {
                let path = "\(list)/\((counts[list] ?? 0) + rank)"
                numbered[i].paths[0] = path
                numbered[i].fix = numbered[i].fix.map { $0.path.hasSuffix(suffix) ? PatchEntry(path, $0.value) : $0 }
            }
        }
        return numbered
    }
}

extension MirrorSide {
    /// Keys a missing entry of this side, a list of bare keys under `capture`, by its index in its list, as
    /// ``MirrorRule/numberingListEntries(_:capture:elementPaths:)`` does: after the rows whose `list` column is
    /// its own, numbered by its `element`.
    mutating func numberAsList(capture: String, list: String, element: String, _ q: SQLContext) {
        let rows = from
        rowKeyName = capture
        newRowKey = { row in
            q.integer(
                "(SELECT count(*) FROM \(rows) m WHERE m.\(list) = \(row).\(list)) + row_number() OVER "
                    + "(PARTITION BY \(row).\(list) ORDER BY \(row).\(element)) - 1")
        }
    }
}

extension EdgeRelation {
    /// Whether each row is the bare key of an end (`user = "."`), under a key of its own (`{id}`): a list of IDs.
    var listsBareKeys: Bool {
        pattern.captureNames.contains("id") && [user, post, target].contains { $0?.keys.isEmpty == true }
    }
}
