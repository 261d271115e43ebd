import FanoutJSON

/// The members of a Firebase node, whether the export wrote it as an object or as an array.
///
/// The Realtime Database turns an object whose keys are small integers into an array, so an array is read as
/// the object it stands for: the index is the key and a `null` element is a hole, no member at all. The
/// walker that fills the core and the repair that rewrites an export both read nodes through this, so the two
/// agree on what an array means.
package struct FirebaseMembers: ~Copyable {
    /// The next index, when the node is an array.
    private var index: Int?
    /// The digits of an array index, handed out as a key; allocated for arrays only, since the walker opens
    /// millions of objects and an allocation each showed in the read phase.
    private let digits: UnsafeMutableRawBufferPointer?

    /// Opens the object or array at `reader`; nil, reading nothing, when the value there is neither.
    package init?(_ reader: inout JSONReader) throws(JSONSyntaxError) {
        switch try reader.peekKind() {
        case .object:
            try reader.beginObject()
            index = nil
            digits = nil
        case .array:
            try reader.beginArray()
            index = 0
            digits = .allocate(byteCount: 20, alignment: 1)
        default:
            return nil
        }
    }

    deinit { digits?.deallocate() }

    /// The next member's key, its value at the reader; nil after the last. The key's bytes are valid until the
    /// reader or this value moves on.
    package mutating func next(_ reader: inout JSONReader) throws(JSONSyntaxError) -> UnsafeRawBufferPointer? {
        guard var index else { return try reader.nextKey() }
        while try reader.nextElement() {
            defer { index += 1; self.index = index }
            if try reader.peekKind() == .null {
                try reader.readNull()
                continue
            }
            return key(of: index)
        }
        return nil
    }

    /// `index` in decimal, in ``digits``.
    private func key(of index: Int) -> UnsafeRawBufferPointer {
        let digits = digits!
        var value = index
        var start = digits.count
        repeat {
            start -= 1
            digits[start] = UInt8(ascii: "0") + UInt8(value % 10)
            value /= 10
        } while value > 0
        return UnsafeRawBufferPointer(rebasing: digits[start...])
    }
}
