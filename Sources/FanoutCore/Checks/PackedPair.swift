/// A like as one integer (post, user), for set membership over millions of likes without hashing structs.
func packed(_ like: Like) -> Int64 { Int64(like.post) << 32 | Int64(UInt32(bitPattern: like.user)) }

/// A follow as one integer (user, target), for set membership over millions of follows.
func packed(_ follow: Follow) -> Int64 { Int64(follow.user) << 32 | Int64(UInt32(bitPattern: follow.target)) }

/// A set of packed pairs as one sorted array: built and searched without hashing, which matters for the
/// millions of likes and follows a large export holds (a `Set<Int64>` spends most of its time in SipHash).
struct PackedPairSet {
    private let sorted: [Int64]

    /// The set of `pairs`.
    init(_ pairs: some Sequence<Int64>) {
        var sorted = Array(pairs)
        sorted.sort()
        self.sorted = sorted
    }

    private init(sorted: [Int64]) { self.sorted = sorted }

    /// The pairs of this set that `other` lacks, found in one pass over both sorted arrays. Mirror rules ask
    /// this once instead of searching the other set for each of millions of pairs (a cache miss a step); what
    /// is left is small, and searching it stays in the cache.
    func subtracting(_ other: PackedPairSet) -> PackedPairSet {
        var missing: [Int64] = []
        var j = 0
        let theirs = other.sorted
        for pair in sorted {
            while j < theirs.count && theirs[j] < pair { j += 1 }
            if j == theirs.count || theirs[j] != pair { missing.append(pair) }
        }
        return PackedPairSet(sorted: missing)
    }

    /// Whether the set holds `pair`.
    func contains(_ pair: Int64) -> Bool {
        var low = 0, high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] < pair { low = mid + 1 } else { high = mid }
        }
        return low < sorted.count && sorted[low] == pair
    }
}
