import Dispatch

/// Runs `first` and `second` at once, on two cores where there are two, and returns both results.
func concurrently<A, B>(_ first: () -> A, _ second: () -> B) -> (A, B) {
    let a = ResultBox<A>(), b = ResultBox<B>()
    withoutActuallyEscaping(first) { first in
        withoutActuallyEscaping(second) { second in
            // Both closures are done when concurrentPerform returns, before they stop existing.
            nonisolated(unsafe) let first = first, second = second
            DispatchQueue.concurrentPerform(iterations: 2) { i in
                if i == 0 { a.value = first() } else { b.value = second() }
            }
        }
    }
    return (a.value!, b.value!)
}

/// One result of ``concurrently(_:_:)``, written by one thread and read after it finished.
private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}
