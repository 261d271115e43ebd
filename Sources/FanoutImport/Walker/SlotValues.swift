import FanoutCore

/// The values of the fields of the entity being read, one per slot (``FieldRole/slot(_:_:)``), in memory of their
/// own rather than an array: writing an element of an array asks the runtime whether the array is shared, and
/// the walker writes several per entity, millions of times in a large export.
///
/// Copies of a walker share them; each walker of a split read makes its own.
final class SlotValues: @unchecked Sendable {
    private let base: UnsafeMutablePointer<FieldValue>
    private let count: Int

    /// `count` slots, each ``FieldValue/missing``.
    init(count: Int) {
        self.count = count
        base = .allocate(capacity: count)
        base.initialize(repeating: .missing, count: count)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    subscript(slot: Int) -> FieldValue {
        @inline(__always) get { base[slot] }
        @inline(__always) set { base[slot] = newValue }
    }
}

/// The keys of the declared row the walker is emitting, in memory of their own for the same reason as
/// ``SlotValues``.
final class KeyBuffer: @unchecked Sendable {
    private let base: UnsafeMutablePointer<KeyID>
    private let count: Int

    init(count: Int) {
        self.count = max(count, 1)
        base = .allocate(capacity: self.count)
        base.initialize(repeating: noKey, count: self.count)
    }

    deinit { base.deallocate() }

    subscript(index: Int) -> KeyID {
        @inline(__always) get { base[index] }
        @inline(__always) set { base[index] = newValue }
    }

    /// The first `count` keys.
    func prefix(_ count: Int) -> UnsafeBufferPointer<KeyID> { UnsafeBufferPointer(start: base, count: count) }
}
