import Dispatch

/// The facts of one relation in two exports, matched by identity: the keys their database path captures, so that
/// two facts match when they are stored at the same path (docs/diff-and-history.md, "What is compared"). Where
/// one export stores a path twice, the last fact read is the one compared, as `check` keeps the last of a key.
///
/// Identities are columns of keys, one per capture, in one key space (``KeyMapping``). Each export's facts are
/// grouped by their first key (a counting sort over the key space: one pass, where sorting millions of identities
/// would take seconds), each group's facts held as one integer, the rest of the identity above the fact's index,
/// and sorted (groups hold a post's likers or a reader's timeline: a few dozen); then the two exports' groups are
/// walked side by side.
struct FactMatching {
    /// Facts only the newer export has, as indexes into its facts.
    var added: [Int] = []
    /// Facts only the older export has, as indexes into its facts.
    var removed: [Int] = []
    /// Facts both have (same path), as indexes into each.
    var kept: [(old: Int, new: Int)] = []
    /// The number of distinct paths on each side.
    var oldCount = 0, newCount = 0

    /// Matches `old.count` and `new.count` facts whose identities are the columns `old.keys` and `new.keys` (as many
    /// on both sides), in a key space of `keySpace` ids.
    init(old: (keys: [[KeyID]], count: Int), new: (keys: [[KeyID]], count: Int), keySpace: Int) {
        let (oldTails, newTails) = Self.tails(old.keys, new.keys)
        let ((o, n)) = concurrently(
            { Groups(first: old.keys.first, tails: oldTails, count: old.count, groupCount: keySpace + 1) },
            { Groups(first: new.keys.first, tails: newTails, count: new.count, groupCount: keySpace + 1) })
        o.entries.withUnsafeBufferPointer { oldEntries in
            n.entries.withUnsafeBufferPointer { newEntries in
                walk(
                    Side(entries: oldEntries, groups: o), Side(entries: newEntries, groups: n), groupCount: keySpace + 1
                )
            }
        }
    }

    /// One export's groups as the walk reads them.
    private struct Side {
        let entries: UnsafeBufferPointer<UInt64>
        let groups: Groups

        /// Group `g`'s range in `entries`.
        @inline(__always) func range(_ g: Int) -> (Int, Int) { (Int(groups.lower[g]), Int(groups.upper[g])) }
    }

    /// Walks the two exports' groups side by side, each group's identities in ascending order.
    private mutating func walk(_ o: Side, _ n: Side, groupCount: Int) {
        for group in 0..<groupCount {
            var (i, iEnd) = o.range(group), (j, jEnd) = n.range(group)
            while i < iEnd || j < jEnd {
                let a = i < iEnd ? o.entries[i] >> 32 : .max, b = j < jEnd ? n.entries[j] >> 32 : .max
                var oldFact = -1
                if a <= b {
                    oldFact = Self.lastOfRun(o.entries, from: &i, end: iEnd)
                    oldCount += 1
                }
                if a < b {
                    removed.append(oldFact)
                    continue
                }
                let newFact = Self.lastOfRun(n.entries, from: &j, end: jEnd)
                newCount += 1
                if oldFact >= 0 { kept.append((oldFact, newFact)) } else { added.append(newFact) }
            }
        }
    }

    /// One export's facts grouped by first key: group `g`'s entries are `entries[lower[g]..<upper[g]]`, each the
    /// rest of a fact's identity (32 bits) above its index (32 bits), ascending.
    ///
    /// An export stores a relation's facts node by node (a post's like set, a reader's timeline), so the facts of
    /// one first key usually come one after another: then each run is a group where it lies, found in one
    /// sequential pass. Otherwise (a node stored twice, rows keyed by IDs) the facts are grouped by a counting sort,
    /// which writes each fact somewhere else in memory: a cache miss a fact.
    private struct Groups: Sendable {
        var lower: [Int32]
        var upper: [Int32]
        var entries: [UInt64]

        init(first: [KeyID]?, tails: [UInt32], count: Int, groupCount: Int) {
            // ``noKey`` (-1) is group 0; no first key at all (a row of a pattern that captures nothing): all in group 0.
            let groups = first.map { $0.map { Int32($0 &+ 1) } } ?? [Int32](repeating: 0, count: count)
            var lower = [Int32](repeating: 0, count: groupCount), upper = [Int32](repeating: 0, count: groupCount)
            var entries = [UInt64](repeating: 0, count: count)
            entries.withUnsafeMutableBufferPointer { entries in
                lower.withUnsafeMutableBufferPointer { lower in
                    upper.withUnsafeMutableBufferPointer { upper in
                        if !Self.runs(groups, tails, entries, lower, upper) {
                            Self.countingSort(groups, tails, entries, lower, upper)
                        }
                        // Groups are small and sorted in place, each within its own range.
                        for g in 0..<groupCount where upper[g] &- lower[g] > 1 {
                            var group = UnsafeMutableBufferPointer(rebasing: entries[Int(lower[g])..<Int(upper[g])])
                            group.sort()
                        }
                    }
                }
            }
            self.lower = lower
            self.upper = upper
            self.entries = entries
        }

        @inline(__always) private static func entry(_ tails: [UInt32], _ fact: Int) -> UInt64 {
            UInt64(tails.isEmpty ? 0 : tails[fact]) << 32 | UInt64(fact)
        }

        /// Groups the facts where they are when each group's facts are one run; false (nothing usable written)
        /// when a group comes back after another.
        private static func runs(
            _ groups: [Int32], _ tails: [UInt32], _ entries: UnsafeMutableBufferPointer<UInt64>,
            _ lower: UnsafeMutableBufferPointer<Int32>, _ upper: UnsafeMutableBufferPointer<Int32>
        ) -> Bool {
            var fact = 0
            while fact < groups.count {
                let g = Int(groups[fact])
                if upper[g] != 0 { return false }
                let start = fact
                while fact < groups.count && Int(groups[fact]) == g {
                    entries[fact] = entry(tails, fact)
                    fact &+= 1
                }
                (lower[g], upper[g]) = (Int32(start), Int32(fact))
            }
            return true
        }

        /// Groups the facts by a counting sort over the groups.
        private static func countingSort(
            _ groups: [Int32], _ tails: [UInt32], _ entries: UnsafeMutableBufferPointer<UInt64>,
            _ lower: UnsafeMutableBufferPointer<Int32>, _ upper: UnsafeMutableBufferPointer<Int32>
        ) {
            for i in lower.indices { lower[i] = 0 }
            for g in groups { lower[Int(g)] &+= 1 }
            var total: Int32 = 0
            for g in lower.indices {
                let size = lower[g]
                (lower[g], upper[g]) = (total, total)
                total &+= size
            }
            for fact in groups.indices {
                let g = Int(groups[fact])
                entries[Int(upper[g])] = entry(tails, fact)
                upper[g] &+= 1
            }
        }
    }

    /// The rest of each fact's identity after its first key, as one number per fact that is equal exactly when
    /// the keys are: the second key (shifted past ``noKey``), or for longer identities the rank of the keys among
    /// both exports' (a schema's declarations may capture more than two keys; few rows do). Empty for identities of
    /// one key or none.
    private static func tails(_ old: [[KeyID]], _ new: [[KeyID]]) -> ([UInt32], [UInt32]) {
        switch old.count {
        case 0, 1: return ([], [])
        case 2: return (old[1].map { UInt32(bitPattern: $0 &+ 1) }, new[1].map { UInt32(bitPattern: $0 &+ 1) })
        default:
            var ranks: [[KeyID]: UInt32] = [:]
            func rank(_ columns: [[KeyID]]) -> [UInt32] {
                (0..<(columns.first?.count ?? 0)).map { fact in
                    let tail = columns.dropFirst().map { $0[fact] }
                    if let known = ranks[tail] { return known }
                    let next = UInt32(ranks.count)
                    ranks[tail] = next
                    return next
                }
            }
            return (rank(old), rank(new))
        }
    }

    /// The index of the last fact of the run of equal identities starting at `index` (the one read last, since
    /// entries of one identity are ordered by index), moving `index` past the run.
    @inline(__always)
    private static func lastOfRun(_ entries: UnsafeBufferPointer<UInt64>, from index: inout Int, end: Int) -> Int {
        let identity = entries[index] >> 32
        index += 1
        while index < end && entries[index] >> 32 == identity { index += 1 }
        return Int(truncatingIfNeeded: entries[index - 1] & 0xFFFF_FFFF)
    }
}
