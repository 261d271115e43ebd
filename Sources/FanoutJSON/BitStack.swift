/// The stack of open containers: one bit per level (1 = object, 0 = array), so nesting depth is limited only by
/// memory (100,000 levels take about 12 KB). The innermost kind is cached for the hot paths.
struct BitStack {
    /// The number of open containers.
    private(set) var depth = 0
    /// True when the innermost open container is an object (false when it is an array or nothing is open).
    private(set) var topIsObject = false
    private var words: [UInt64] = []

    /// Opens a container.
    @inline(__always)
    mutating func push(isObject: Bool) {
        let word = depth >> 6
        let bit: UInt64 = 1 << UInt64(depth & 63)
        if word == words.count { words.append(0) }
        if isObject {
            words[word] |= bit
        } else {
            words[word] &= ~bit
        }
        depth &+= 1
        topIsObject = isObject
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
            topIsObject = (words[level >> 6] >> UInt64(level & 63)) & 1 != 0
        }
    }
}
