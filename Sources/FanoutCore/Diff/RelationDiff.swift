import Dispatch
import FanoutJSON

/// One fact that differs between two exports: where it is stored, and its value in each (nil where the export
/// has none: an added fact has no old value, a removed one no new value).
public struct DiffEntry: Sendable, Equatable {
    /// The database path, as findings name it.
    public var path: String
    /// The value in the older export (the members ``DiffRelation/fields(in:)`` names).
    public var old: JSONValue?
    /// The value in the newer export.
    public var new: JSONValue?

    public init(path: String, old: JSONValue?, new: JSONValue?) {
        self.path = path
        self.old = old
        self.new = new
    }
}

/// What changed in one relation between two exports: how many facts (distinct paths) each has, and the facts
/// added, removed and changed (same path, another value), each ordered by path (its UTF-8 bytes).
/// docs/diff-and-history.md, "What is compared".
public struct RelationDiff: Sendable {
    public var relation: DiffRelation
    /// Distinct paths in the older export and in the newer one.
    public var before: Int, after: Int
    public var added: [DiffEntry]
    public var removed: [DiffEntry]
    public var changed: [DiffEntry]

    public init(
        relation: DiffRelation, before: Int, after: Int, added: [DiffEntry], removed: [DiffEntry], changed: [DiffEntry]
    ) {
        self.relation = relation
        self.before = before
        self.after = after
        self.added = added
        self.removed = removed
        self.changed = changed
    }

    /// Whether anything changed.
    public var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }

    /// Compares `relation` in two datasets laid out alike, their keys in one space by `mapping`.
    init(_ relation: DiffRelation, old: Dataset, new: Dataset, mapping: KeyMapping) {
        let oldFacts = DiffFacts(relation, of: old), newFacts = DiffFacts(relation, of: new)
        let (oldIdentities, newIdentities) = concurrently(
            { oldFacts.identities(mapping) }, { newFacts.identities(nil) })
        let matching = FactMatching(
            old: (oldIdentities, oldFacts.count), new: (newIdentities, newFacts.count), keySpace: mapping.keySpace)
        var changedPairs: [(old: Int, new: Int)] = []
        if !matching.kept.isEmpty {
            // Keys the values hold besides the identity: mapped likewise, then compared with the other members.
            let (oldValues, newValues) = concurrently({ oldFacts.values(mapping) }, { newFacts.values(nil) })
            let agree = DiffFacts.scalarsAgree(oldFacts, newFacts)
            changedPairs = matching.kept.filter { pair in
                for (a, b) in zip(oldValues, newValues) where a[pair.old] != b[pair.new] { return true }
                return !agree(pair.old, pair.new)
            }
        }
        self.relation = relation
        before = matching.oldCount
        after = matching.newCount
        added = Self.sorted(
            matching.added.map { DiffEntry(path: newFacts.path($0), old: nil, new: newFacts.value($0)) })
        removed = Self.sorted(
            matching.removed.map { DiffEntry(path: oldFacts.path($0), old: oldFacts.value($0), new: nil) })
        changed = Self.sorted(
            changedPairs.map {
                DiffEntry(path: newFacts.path($0.new), old: oldFacts.value($0.old), new: newFacts.value($0.new))
            })
    }

    /// `entries` ordered by path, by UTF-8 bytes (as `fanout sql --diff`'s runners order them).
    private static func sorted(_ entries: [DiffEntry]) -> [DiffEntry] {
        entries.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }
}
