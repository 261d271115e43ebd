import Dispatch
import FanoutLocked

/// Runs `first` and `second` at once, on two cores where there are two, and returns both results.
func concurrently<A: Sendable, B: Sendable>(_ first: () -> A, _ second: () -> B) -> (A, B) {
    let a = Locked<A?>(nil), b = Locked<B?>(nil)
    withoutActuallyEscaping(first) { first in
        withoutActuallyEscaping(second) { second in
            // Both closures are done when concurrentPerform returns, before they stop existing.
            nonisolated(unsafe) let first = first, second = second
            DispatchQueue.concurrentPerform(iterations: 2) { i in
                if i == 0 {
                    let value = first()
                    a.withLock { $0 = value }
                } else {
                    let value = second()
                    b.withLock { $0 = value }
                }
            }
        }
    }
    return (a.value!, b.value!)
}
