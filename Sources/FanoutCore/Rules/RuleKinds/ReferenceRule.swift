import FanoutJSON

/// One reference that names nothing, as the reference kind reports it.
struct BrokenReference {
    /// Where the reference is (the one to change first), then any other path involved.
    var paths: [String]
    /// The key it names, or nil when it names none (a post without an owner).
    var key: String?
    /// What deletes the referring record, when that is the fix.
    var fix: [PatchEntry] = []
    /// The referring record's key, for messages.
    var record: KeyID = noKey
    /// Another key messages name (the post a comment is on).
    var other: KeyID = noKey
}

/// The reference kind (docs/layouts.md "Declaring your app's copies"): a field or key that must name an existing
/// record. There is no mechanical fix unless the schema marks the referring row deletable. `post-unknown-poster` is a
/// reference from each post to its owner; each declared reference is one.
protocol ReferenceRule: ConsistencyRule {
    /// The references that name no existing record.
    func broken(in context: CheckContext) -> [BrokenReference]
    /// The message of a broken reference.
    func message(_ reference: BrokenReference, in context: CheckContext) -> String
}

extension ReferenceRule {
    func findings(in context: CheckContext) -> [Finding] {
        broken(in: context).map { reference in
            finding(
                message(reference, in: context), paths: reference.paths,
                expected: reference.fix.isEmpty ? nil : JSONValue.null, actual: reference.key ?? "no one",
                fix: reference.fix)
        }
    }
}
