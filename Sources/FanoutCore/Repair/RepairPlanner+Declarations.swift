import FanoutJSON

extension RepairPlanner {
    /// Comments on posts that do not exist, or by users who do not exist, are deleted.
    mutating func repairComments() {
        guard dataset.schema.comments != nil else { return }
        for comment in dataset.comments where !postExists(comment.post) || !userExists(comment.user) {
            set(dataset.path(of: comment), .null)
        }
    }

    /// The post mirror and every declared copy (docs/layouts.md "Declaring your app's copies"), recomputed from the
    /// repaired sources: a mirror is made to hold exactly the kept facts of its relation; a counter, a copy and a
    /// deletable reference take the fix of their finding, since what they count or copy is what the repair keeps.
    mutating func repairDeclaredCopies(_ context: CheckContext) {
        for rule in RuleCatalog.rules(for: dataset.schema) where rule.missingRequirement(in: dataset.schema) == nil {
            switch rule {
            case let mirror as any MirrorRule:
                guard RuleCatalog.isPlaced(rule.descriptor.id, in: dataset.schema), !(mirror is LikeMirrorMissingRule),
                    !(mirror is FollowMirrorMissingRule)
                else { continue }
                for entry in mirror.repair(context) { set(entry.path, entry.value) }
            case is DeclaredCounterRule, is DeclaredCopyRule, is DeclaredReferenceRule:
                for finding in rule.findings(in: context) {
                    for entry in finding.fix { set(entry.path, entry.value) }
                }
            default:
                continue
            }
        }
        fillCopiesOfNewRows(context)
    }

    /// New rows the repair writes (a missing timeline row keyed by an ID, a missing row of a mirror) get the copies
    /// declared on their pattern, so that the repaired export holds rows as the app writes them.
    private mutating func fillCopiesOfNewRows(_ context: CheckContext) {
        let declarations = dataset.schema.declarations.copies
        guard !declarations.isEmpty else { return }
        for copy in declarations {
            guard
                let rule = RuleCatalog.rules(for: dataset.schema).first(where: { $0.descriptor.id == copy.name })
                    as? DeclaredCopyRule
            else { continue }
            let (row, field) = copy.at.rowAndField
            let original = rule.originals(in: context)
            for (path, value) in updates {
                guard case .object = value else { continue }
                let keys = path.split(separator: "/", omittingEmptySubsequences: false)
                guard keys.count == row.segments.count, let captures = row.captures(in: keys) else { continue }
                let key: String?
                switch copy.via {
                case .capture(let name): key = captures.first { $0.name == name }.map { String($0.key) }
                case .field(let via): key = Self.string(at: via.keys[...], in: value)
                }
                guard let key, let id = dataset.keyID(key), let original = original(id) else { continue }
                updates[path] =
                    field.keys.isEmpty ? original : RepairPatch.setting(field.keys[...], to: original, in: value)
            }
        }
    }

    /// The string at `keys` inside `value`.
    private static func string(at keys: ArraySlice<String>, in value: JSONValue) -> String? {
        guard let key = keys.first else { return value.stringValue }
        guard let member = value.objectMembers?.last(where: { $0.key == key })?.value else { return nil }
        return string(at: keys.dropFirst(), in: member)
    }
}

extension MirrorRule {
    /// The entries that make the mirror hold exactly the source's edges that it reports as missing when absent
    /// (the kept ones): each such edge the mirror lacks is added, each mirror entry of another edge deleted.
    func repair(_ context: CheckContext) -> [PatchEntry] {
        let dataset = context.dataset
        let (source, mirror) = sides(of: context)
        let kept = source.filter { reportsMissing($0, in: context) }
        let keptPairs = PackedPairSet(kept.lazy.map(pair))
        var entries: [PatchEntry] = []
        for edge in MirrorDifference(source: kept, mirror: mirror, packed: pair).notMirrored {
            if let path = paths(of: edge, fromSource: true, in: dataset).mirror {
                entries.append(PatchEntry(path, entryValue(edge, in: dataset)))
            }
        }
        // Every entry of an edge not kept, repeated ones too.
        for edge in mirror where !keptPairs.contains(pair(edge)) {
            if let path = paths(of: edge, fromSource: false, in: dataset).mirror {
                entries.append(PatchEntry(path, .null))
            }
        }
        return entries
    }
}
