/// Where a ``TemplateNode/text(_:)``'s bytes are in its ``TemplateTextPool``.
struct TemplateText: Sendable {
    let start: Int
    let count: Int
}

/// The text of every template of a set in one block, which ``TemplateText``s point into, freed with the set.
final class TemplateTextPool: @unchecked Sendable {  // immutable after init
    let bytes: UnsafeMutableBufferPointer<UInt8>

    init(_ collected: [UInt8]) {
        bytes = .allocate(capacity: max(1, collected.count))
        _ = bytes.initialize(from: collected)
    }

    deinit { bytes.deallocate() }

    /// The bytes of `text`.
    @inline(__always)
    subscript(text: TemplateText) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[text.start..<(text.start + text.count)])
    }
}
