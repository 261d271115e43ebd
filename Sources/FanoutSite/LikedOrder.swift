import FanoutCore
import Foundation

/// Each user's liked posts newest first, as their liked pages list them (``LikedValues``), sorted the first time a
/// page needs them and kept: every page of a user's liked list and its Markdown twin show a slice of the same order,
/// and sorting the whole list again for each of them (for its input key, then its values) was a quarter of a
/// rebuild's time spent deciding which pages changed.
final class LikedOrder: @unchecked Sendable {  // a slot is only touched under the lock of its stripe
    private let derived: DerivedData
    /// By user; nil until sorted.
    private let lists: UnsafeMutableBufferPointer<[Int32]?>
    private let locks = (0..<64).map { _ in NSLock() }

    init(derived: DerivedData, users: Int) {
        self.derived = derived
        lists = .allocate(capacity: users)
        lists.initialize(repeating: nil)
    }

    deinit {
        lists.deinitialize()
        lists.deallocate()
    }

    /// User `u`'s liked posts in the order timelines list them: newest first, equal times by key
    /// (``DerivedData/postRank``).
    func posts(_ u: Int) -> [Int32] {
        let lock = locks[u % locks.count]
        if let known = lock.withLock({ lists[u] }) { return known }
        let rank = derived.postRank
        // Sorted outside the lock: two pages may sort the same list at once, and both get the same order.
        let sorted = derived.likedPosts[u].sorted { rank[Int($0)] < rank[Int($1)] }
        lock.withLock { lists[u] = sorted }
        return sorted
    }
}
