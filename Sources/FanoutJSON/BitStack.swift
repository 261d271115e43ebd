/// The stack of open containers: one bit per level (1 = object, 0 = array), so nesting depth is limited only by
/// memory (100,000 levels take about 12 KB). The innermost kind is cached for the hot paths.
///
/// The first 64 levels live in a word of their own, so that opening and closing the handful of levels an export
/// nests never touches the array (whose every write asks the runtime whether it is shared: a million times in
/// reading the 110 MB export).
struct BitStack {
    /// The number of open containers.
    private(set) var depth = 0
    /// True when the innermost open container is an object (false when it is an array or nothing is open).
    private(set) var topIsObject = false
    /// Levels 0 ..< 64.
    private var low: UInt64 = 0
    /// Levels from 64 on, 64 to a word.
    private var high: [UInt64] = []

    /// Opens a container.
    @inline(__always)
    mutating func push(isObject: Bool) {
        if depth < 64 {
            let bit: UInt64 = 1 &<< UInt64(depth)
            low = isObject ? low | bit : low & ~bit
        } else {
            pushHigh(isObject: isObject)
        }
        depth &+= 1
        topIsObject = isObject
    }

    private mutating func pushHigh(isObject: Bool) {
        let word = (depth &- 64) >> 6
        let bit: UInt64 = 1 << UInt64(depth & 63)
        if word == high.count { high.append(0) }
        if isObject {
            high[word] |= bit
        } else {
            high[word] &= ~bit
        }
    }

    /// Closes the innermost container (no effect when none is open).
    @inline(__always)
    mutating func pop() {
        guard depth > 0 else { return }
        depth &-= 1
        if depth == 0 {
            topIsObject = false
        } else {
            let level = depth &- 1
            let word = level < 64 ? low : high[(level &- 64) >> 6]
            topIsObject = (word >> UInt64(level & 63)) & 1 != 0
        }
    }
}
