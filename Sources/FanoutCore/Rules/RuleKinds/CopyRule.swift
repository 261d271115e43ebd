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
    /// Whether other copies of the same record hold other values, when the copy is the truth: the record then has
    /// no one value to take.
    var copiesDisagree = false
}

/// The copy kind (docs/layouts.md "Declaring your app's copies"): a field that copies a field of another record, found
/// through a key. The original is the truth unless the rule says the copy is (``copyIsTruth``): a copy that differs
/// is a finding whose fix writes the truth over the other side, when the truth has a value to write and, for a copy
/// that is the truth, every copy of the record holds that value (else there is a choice to make, and no fix).
/// `poster-copy-stale` and `poster-copy-uid` are copies of a
/// post's poster; each declared copy is one. A rule says which copies it checks and what its findings say; the
/// comparison, the finding and its fix are made here.
protocol CopyRule: ConsistencyRule {
    /// Calls `body` with each copy whose original record exists, and the value it copies.
    func eachReading(in context: CheckContext, _ body: (CopyReading) -> Void)
    /// Where the copy `reading` is about is, and then where its original is.
    func paths(of reading: CopyReading, in context: CheckContext) -> [String]
    /// The message of a copy that differs from its original.
    func message(_ reading: CopyReading, in context: CheckContext) -> String
    /// Whether the copy is the truth and the record the side a fix changes.
    var copyIsTruth: Bool { get }
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

extension StoredValue {
    /// Whether a fix may write the value elsewhere: a scalar that is there (an object or an array is not copied
    /// whole, and writing none would delete the other side's value).
    var isWritable: Bool {
        switch self {
        case .object, .array, .missing, .null: false
        default: true
        }
    }
}

extension CopyRule {
    var copyIsTruth: Bool { false }

    func findings(in context: CheckContext) -> [Finding] {
        var findings: [Finding] = []
        guard copyIsTruth else {
            eachReading(in: context) { reading in
                guard !reading.copy.isSameValue(as: reading.original) else { return }
                let paths = paths(of: reading, in: context)
                // A record without the copied field leaves the copy the only place its value exists.
                let fix = reading.original.isWritable ? [PatchEntry(paths[0], reading.original.json!)] : []
                findings.append(
                    finding(
                        message(reading, in: context), paths: paths, expected: reading.original.json ?? .null,
                        actual: reading.copy.json ?? .null, fix: fix))
            }
            return findings
        }
        // The copy is the truth: the finding is the record's value, which takes the copies' value when they agree.
        var differing: [CopyReading] = []
        var firstCopy: [Int: StoredValue] = [:]
        var disagreeing: Set<Int> = []
        eachReading(in: context) { reading in
            if reading.copy.isPresent {
                if let first = firstCopy[reading.originalSubject] {
                    if !first.isSameValue(as: reading.copy) { disagreeing.insert(reading.originalSubject) }
                } else {
                    firstCopy[reading.originalSubject] = reading.copy
                }
            }
            if !reading.copy.isSameValue(as: reading.original) { differing.append(reading) }
        }
        for var reading in differing {
            reading.copiesDisagree = reading.copy.isPresent && disagreeing.contains(reading.originalSubject)
            let paths = paths(of: reading, in: context)
            let fix =
                reading.copy.isWritable && !reading.copiesDisagree ? [PatchEntry(paths[1], reading.copy.json!)] : []
            findings.append(
                finding(
                    message(reading, in: context), paths: [paths[1], paths[0]], expected: reading.copy.json ?? .null,
                    actual: reading.original.json ?? .null, fix: fix))
        }
        return findings
    }
}
