import FanoutJSON

/// One stored copy, as the copy kind checks it: what it holds, what it copies, and which copy it is (its paths
/// are made only for a finding).
struct CopyReading {
    /// The copy's index in its rule's own terms (a post's, a declared row's).
    var subject: Int
    /// The original's index in its rule's own terms, where it has one.
    var originalSubject = -1
    /// What the copy holds.
    var copy: StoredValue
    /// What it copies.
    var original: StoredValue
    /// The key of the copied record, for messages.
    var record: KeyID = noKey
}

/// The copy kind (docs/layouts.md "Declaring your app's copies"): a field that copies a field of another record, found
/// through a key. The original is the truth: a copy that differs is a finding, whose fix writes the original into
/// it (or deletes it, when the original has no value). `poster-copy-stale` and `poster-copy-uid` are copies of a
/// post's poster; each declared copy is one. A rule says which copies it checks and what its findings say; the
/// comparison, the finding and its fix are made here.
protocol CopyRule: ConsistencyRule {
    /// Calls `body` with each copy whose original record exists, and the value it copies.
    func eachReading(in context: CheckContext, _ body: (CopyReading) -> Void)
    /// Where the copy `reading` is about is, and then where its original is.
    func paths(of reading: CopyReading, in context: CheckContext) -> [String]
    /// The message of a copy that differs from its original.
    func message(_ reading: CopyReading, in context: CheckContext) -> String
}

extension StoredValue {
    /// What copies are compared by: the JSON text of a value that is there, nil for none (missing or null, as
    /// Firebase stores no nulls).
    var comparable: String? { isPresent ? text : nil }

    /// Whether `self` and `other` compare alike (``comparable``), found without writing their text: values of one
    /// JSON text are equal values, numbers included (`1` and `1.0` differ in both).
    func isSameValue(as other: StoredValue) -> Bool {
        switch (isPresent, other.isPresent) {
        case (false, false): true
        case (true, true): self == other
        default: false
        }
    }
}

extension CopyRule {
    func findings(in context: CheckContext) -> [Finding] {
        var findings: [Finding] = []
        eachReading(in: context) { reading in
            guard !reading.copy.isSameValue(as: reading.original) else { return }
            let paths = paths(of: reading, in: context)
            let fix: [PatchEntry] =
                switch reading.original {
                // A record without the copied field leaves the copy the only place its value exists.
                case .object, .array, .missing, .null: []
                default: [PatchEntry(paths[0], reading.original.json ?? .null)]
                }
            findings.append(
                finding(
                    message(reading, in: context), paths: paths, expected: reading.original.json ?? .null,
                    actual: reading.copy.json ?? .null, fix: fix))
        }
        return findings
    }
}
