import Foundation

/// Marks the phases of a run (read, derive, check, render): shows them on a terminal (``TerminalProgress``)
/// and, when the environment sets `FANOUT_TIMINGS=1`, prints `timing PHASE SECONDS` lines to stderr for
/// `bench/run`.
enum PhaseClock {
    static let enabled = ProcessInfo.processInfo.environment["FANOUT_TIMINGS"] == "1"

    /// Runs `body`, reporting its wall time under `phase`.
    static func measure<T>(_ phase: String, _ body: () throws -> T) rethrows -> T {
        TerminalProgress.shared.begin(phase)
        defer { TerminalProgress.shared.end() }
        guard enabled else { return try body() }
        let start = DispatchTime.now().uptimeNanoseconds
        defer {
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            printStatus("timing \(phase) \(String(format: "%.3f", seconds))")
        }
        return try body()
    }
}
