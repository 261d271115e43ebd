import FanoutJSON

/// One stored copy, as the copy kind checks it: where it is, what it holds, and what it copies.
struct CopyReading {
    /// The copy's path first, then where the original is.
    var paths: [String]
    /// What the copy holds.
    var copy: StoredValue
    /// What it copies.
    var original: StoredValue
    /// The key of the copied record, for messages.
    var record: KeyID = noKey
}

/// The copy kind (README "Declaring your app's copies"): a field that copies a field of another record, found
/// through a key. The original is the truth: a copy that differs is a finding, whose fix writes the original into
/// it (or deletes it, when the original has no value). `poster-copy-stale` and `poster-copy-uid` are copies of a
/// post's poster; each declared copy is one. A rule says which copies it checks and what its findings say; the
/// comparison, the finding and its fix are made here.
protocol CopyRule: ConsistencyRule {
    /// The copies whose original record exists, each with the value it copies.
    func readings(in context: CheckContext) -> [CopyReading]
    /// The message of a copy that differs from its original.
    func message(_ reading: CopyReading, in context: CheckContext) -> String
}

extension StoredValue {
    /// What copies are compared by: the JSON text of a value that is there, nil for none (missing or null, as
    /// Firebase stores no nulls).
    var comparable: String? { isPresent ? text : nil }
}

extension CopyRule {
    func findings(in context: CheckContext) -> [Finding] {
        readings(in: context).compactMap { reading in
            guard reading.copy.comparable != reading.original.comparable else { return nil }
            let path = reading.paths[0]
            let fix: [PatchEntry] = switch reading.original {
            case .object, .array: []
            default: [PatchEntry(path, reading.original.json ?? .null)]
            }
            return finding(
                message(reading, in: context), paths: reading.paths, expected: reading.original.json ?? .null,
                actual: reading.copy.json ?? .null, fix: fix)
        }
    }
}
