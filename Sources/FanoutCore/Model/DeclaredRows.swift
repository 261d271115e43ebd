/// The rows of one ``RowSet``: per row its keys (the pattern's captures, then the key fields) and, where the set
/// keeps one, its value. Keys are stored flat, ``keyCount`` a row, so that millions of rows are two arrays.
public struct DeclaredRows: Sendable {
    /// Keys per row.
    package let keyCount: Int
    /// Whether each row keeps a value.
    package let keepsValues: Bool
    /// The rows' keys, `keyCount` each.
    package var keys: [KeyID] = []
    /// The rows' values, when kept.
    package var values: [StoredValue] = []
    /// The number of rows.
    public private(set) var count = 0

    package init(_ set: RowSet) {
        keyCount = set.keyCount
        keepsValues = { if case .field? = set.value { true } else { false } }()
    }

    /// Appends a row.
    package mutating func append(keys row: UnsafeBufferPointer<KeyID>, value: StoredValue) {
        keys.append(contentsOf: row)
        if keepsValues { values.append(value) }
        count += 1
    }

    /// Key `index` of row `row`.
    @inline(__always) package func key(_ row: Int, _ index: Int) -> KeyID { keys[row &* keyCount &+ index] }

    /// The keys of row `row`.
    package func keys(of row: Int) -> ArraySlice<KeyID> { keys[(row * keyCount)..<((row + 1) * keyCount)] }

    /// Appends the rows of `other`, leaving it empty.
    package mutating func append(moving other: inout DeclaredRows) {
        keys.append(contentsOf: other.keys)
        values.append(contentsOf: other.values)
        count += other.count
        other.keys = []
        other.values = []
        other.count = 0
    }

    /// Renumbers the keys of the rows from `start` on (see ``Dataset/renumberKeys(since:through:)``).
    package mutating func renumberKeys(from start: Int, _ ids: UnsafeBufferPointer<KeyID>) {
        guard start < count else { return }
        keys.withUnsafeMutableBufferPointer { keys in
            for i in (start * keyCount)..<keys.count where keys[i] != noKey { keys[i] = ids[Int(keys[i])] }
        }
    }
}
