extension CounterDeclaration {
    /// The collection a per-record counter is stored in, when that collection names its records by a field
    /// (`groups/{group}/memberCount` in `groups/{group}` with `key = "gid"`): the counter's capture is then the key
    /// the record is stored under, and its count is looked up by the key the record names (docs/layouts.md "Records
    /// of any collection"). Nil otherwise.
    public func keyedHolder(in schema: Schema) -> DeclaredRelation? {
        guard let per else { return nil }
        let row = at.rowAndField.row
        var holders: [(DeclaredRelation, PathPattern, String, Bool)] = []
        if let users = schema.users { holders.append((.users, users.pattern, "user", users.key != nil)) }
        if let posts = schema.posts { holders.append((.posts, posts.pattern, "post", posts.key != nil)) }
        for record in schema.records {
            holders.append((.records(record.name), record.pattern, record.keyName, record.key != nil))
        }
        for (relation, pattern, keyName, keyedByField) in holders where keyedByField {
            guard pattern.segments.count == row.segments.count else { continue }
            let sameShape = zip(row.segments, pattern.segments).allSatisfy { counter, holder in
                switch (counter, holder) {
                case (.literal(let a), .literal(let b)): a == b
                case (.capture(let a), .capture(let b)): (a == per) == (b == keyName)
                default: false
                }
            }
            if sameShape, row.captureNames.contains(per) { return relation }
        }
        return nil
    }
}
