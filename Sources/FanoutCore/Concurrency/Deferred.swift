import Dispatch
import FanoutLocked

/// A value made on another thread, started as soon as it is declared and waited for only where it is read: for
/// what a page may need but the first page need not wait for (`serve`'s search orders, the report's coverage).
package final class Deferred<Value: Sendable>: Sendable {
    private let made = Locked<Value?>(nil)
    private let done = DispatchGroup()

    /// Starts making the value with `make`.
    package init(_ make: @escaping @Sendable () -> Value) {
        done.enter()
        DispatchQueue.global().async { [made, done] in
            let value = make()
            made.withLock { $0 = value }
            done.leave()
        }
    }

    /// A value made already.
    package init(value: Value) {
        made.withLock { $0 = value }
    }

    /// The value, once made.
    package var value: Value {
        done.wait()
        return made.withLock { $0! }
    }
}
