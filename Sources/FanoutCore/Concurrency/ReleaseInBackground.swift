import Dispatch

/// Lets go of `value` on another thread. The last references to a build's pages and dataset free tens of thousands of
/// objects, about a twentieth of a small rebuild's wall time, on the thread that then prints the summary and exits;
/// let go of on another, they are freed meanwhile, or not at all when the process ends first, its memory going back
/// whole (docs/performance.md "Rebuilds"). Nothing may be left to do when `value` goes but freeing
/// memory: no file to close or flush.
///
/// In the fuzz target's build (`-DFUZZING`), let go of at once: libFuzzer looks for leaks as each input returns, and
/// would take memory still on its way to another thread for a leak (docs/robustness.md "Fuzzing").
package func releaseInBackground<Value>(_ value: consuming Value) {
    #if FUZZING
        _ = consume value
    #else
        let held = Held(value)
        DispatchQueue.global(qos: .utility).async { withExtendedLifetime(held) {} }
    #endif
}

/// A value carried to the thread that lets go of it; only that thread touches it, and only to release it.
private final class Held<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: consuming Value) { self.value = value }
}
