import Synchronization

/// A value that threads share, reached only while holding its lock: the one lock type of Fanout.
///
/// A class around the standard library's `Mutex`, so that it can be captured by the closures of parallel work
/// (`DispatchQueue.concurrentPerform`) the way one shared object is.
package final class Locked<Value>: Sendable {
    private let mutex: Mutex<Value>

    /// A lock holding `value`.
    package init(_ value: sending Value) { mutex = Mutex(value) }

    /// Runs `body` with the value, under the lock.
    package func withLock<Result>(_ body: (inout sending Value) throws -> sending Result) rethrows -> sending Result {
        try mutex.withLock(body)
    }
}

extension Locked where Value: Sendable {
    /// A copy of the value.
    package var value: Value { withLock { $0 } }
}
