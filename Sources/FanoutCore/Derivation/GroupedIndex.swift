import Dispatch

/// Values grouped by a small integer, stored flat: the compressed-sparse-row layout.
///
/// Millions of likes, follows and timeline entries grouped per post or user would cost an array each;
/// one flat array plus offsets costs four bytes a value and keeps each group contiguous.
package struct GroupedIndex: Sendable {
    /// `starts[g]..<starts[g + 1]` is group `g`'s range in `values`.
    package private(set) var starts: [Int32]
    /// The values of all groups, group after group.
    package private(set) var values: [Int32]

    /// Groups `pairs` (group, value) into `groupCount` groups, keeping each group's values in input order.
    package init(groupCount: Int, pairs: [(group: Int32, value: Int32)]) {
        var starts = [Int32](repeating: 0, count: groupCount + 1)
        for pair in pairs { starts[Int(pair.group) + 1] += 1 }
        for g in 0..<groupCount { starts[g + 1] += starts[g] }
        var next = starts
        var values = [Int32](repeating: 0, count: pairs.count)
        for pair in pairs {
            values[Int(next[Int(pair.group)])] = pair.value
            next[Int(pair.group)] += 1
        }
        self.starts = starts
        self.values = values
    }

    /// The number of groups.
    package var groupCount: Int { starts.count - 1 }

    /// The values of group `group`.
    package subscript(group: Int) -> ArraySlice<Int32> {
        values[Int(starts[group])..<Int(starts[group + 1])]
    }

    /// Sorts each group's values by `areInIncreasingOrder` and drops repeated values within a group.
    package mutating func sortAndDeduplicateGroups(by areInIncreasingOrder: (Int32, Int32) -> Bool) {
        var write = 0
        let starts = self.starts, groupCount = self.groupCount
        var newStarts = [Int32](repeating: 0, count: starts.count)
        values.withUnsafeMutableBufferPointer { values in
            for g in 0..<groupCount {
                let range = Int(starts[g])..<Int(starts[g + 1])
                // In place: groups are contiguous, and the write cursor never passes the group's start.
                var group = UnsafeMutableBufferPointer(rebasing: values[range])
                if group.count > 1 { group.sort(by: areInIncreasingOrder) }
                var last: Int32? = nil
                for i in group.indices where group[i] != last {
                    last = group[i]
                    values[write] = group[i]
                    write += 1
                }
                newStarts[g + 1] = Int32(write)
            }
        }
        values.removeSubrange(write...)
        self.starts = newStarts
    }

    /// Groups given directly in the compressed-sparse-row layout.
    init(starts: [Int32], values: [Int32]) {
        self.starts = starts
        self.values = values
    }

    /// ``sortAndDeduplicateGroups(by:)`` on both cores: chunks of groups are sorted and deduplicated within
    /// their own ranges at once, then the groups are moved together. For the large indexes (timelines).
    package mutating func sortAndDeduplicateGroupsConcurrently(
        by areInIncreasingOrder: @Sendable (Int32, Int32) -> Bool
    ) {
        let starts = self.starts, groupCount = self.groupCount
        var kept = [Int32](repeating: 0, count: groupCount)
        let chunks = min(groupCount, 64)
        guard chunks > 1 else {
            sortAndDeduplicateGroups(by: areInIncreasingOrder)
            return
        }
        values.withUnsafeMutableBufferPointer { values in
            kept.withUnsafeMutableBufferPointer { kept in
                // Each chunk touches only its own groups' ranges and counts.
                nonisolated(unsafe) let values = values, kept = kept
                DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                    for g in (groupCount * chunk / chunks)..<(groupCount * (chunk + 1) / chunks) {
                        let start = Int(starts[g])
                        var group = UnsafeMutableBufferPointer(rebasing: values[start..<Int(starts[g + 1])])
                        if group.count > 1 { group.sort(by: areInIncreasingOrder) }
                        var write = 0
                        for i in group.indices where write == 0 || group[i] != group[write - 1] {
                            group[write] = group[i]
                            write += 1
                        }
                        kept[g] = Int32(write)
                    }
                }
            }
        }
        var write = 0
        var newStarts = [Int32](repeating: 0, count: starts.count)
        values.withUnsafeMutableBufferPointer { values in
            for g in 0..<groupCount {
                let start = Int(starts[g]), count = Int(kept[g])
                if write != start, count > 0 {
                    (values.baseAddress! + write).update(from: values.baseAddress! + start, count: count)
                }
                write += count
                newStarts[g + 1] = Int32(write)
            }
        }
        values.removeSubrange(write...)
        self.starts = newStarts
    }

    /// Whether group `group` holds `value`, for groups sorted ascending.
    package func sortedGroup(_ group: Int, contains value: Int32) -> Bool {
        var low = Int(starts[group]), high = Int(starts[group + 1])
        while low < high {
            let mid = (low + high) / 2
            if values[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low < Int(starts[group + 1]) && values[low] == value
    }
}
