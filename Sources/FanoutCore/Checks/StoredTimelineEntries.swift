import FanoutJSON

/// The stored timeline entries of existing posts, grouped by timeline owner key, post indexes ascending, for
/// membership tests. Entries of posts that do not exist are left out: no derived timeline holds them.
struct StoredTimelines {
    let byUser: GroupedIndex

    init(_ dataset: Dataset, _ derived: DerivedData) {
        var pairs: [(group: Int32, value: Int32)] = []
        pairs.reserveCapacity(dataset.timeline.count)
        for entry in dataset.timeline {
            if let p = derived.post(entry.post) { pairs.append((group: entry.user, value: Int32(p))) }
        }
        var index = GroupedIndex(groupCount: dataset.keys.count, pairs: pairs)
        index.sortAndDeduplicateGroups(by: <)
        byUser = index
    }

    func contains(user: KeyID, post p: Int32) -> Bool { byUser.sortedGroup(Int(user), contains: p) }
}

/// The value a stored timeline entry should hold for a post by `owner`: the edge value, or an object with the
/// poster field, and for rows keyed by an ID the post field (`post`, ``noKey`` for an entry whose post is its key).
func timelineEntryValue(_ dataset: Dataset, owner: KeyID, post: KeyID = noKey) -> JSONValue {
    guard let timeline = dataset.schema.timeline else { return dataset.schema.edgeValue.json }
    var fields: [(FieldPath, JSONValue)] = []
    if let field = timeline.post, post != noKey { fields.append((field, .string(dataset.key(post)))) }
    if let field = timeline.posterUID { fields.append((field, .string(dataset.key(owner)))) }
    guard !fields.isEmpty else { return dataset.schema.edgeValue.json }
    var value = JSONValue.object([])
    for (field, fieldValue) in fields { value = RepairPatch.setting(field.keys[...], to: fieldValue, in: value) }
    return value
}
