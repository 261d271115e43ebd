/// The stack of open containers: one bit per level (1 = object, 0 = array), so nesting depth is limited only by
/// memory (100,000 levels take about 12 KB).
struct BitStack {
    /// The number of open containers.
    private(set) var depth = 0
    private var words: [UInt64] = []

    /// True when the innermost open container is an object (false when it is an array or nothing is open).
    var topIsObject: Bool {
        let level = depth &- 1
        guard level >= 0 else { return false }
        return (words[level >> 6] >> UInt64(level & 63)) & 1 != 0
    }

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
    }

    /// Closes the innermost container (no effect when none is open).
    @inline(__always)
    mutating func pop() {
        if depth > 0 { depth &-= 1 }
    }
}
