import Foundation

/// Marks the phases of a run (read, derive, check, render): shows them on a terminal (``TerminalProgress``)
/// and, when the environment sets `FANOUT_TIMINGS=1`, prints `timing PHASE SECONDS peak-rss MB` lines to stderr
/// for `bench/run` (the peak resident memory of the run so far, on Linux; which phase sets it tells where
/// memory goes).
enum PhaseClock {
    static let enabled = ProcessInfo.processInfo.environment["FANOUT_TIMINGS"] == "1"

    /// Runs `body`, reporting its wall time under `phase`; `seconds`, when given, is told it too (`build -v`).
    static func measure<T>(_ phase: String, seconds: ((Double) -> Void)? = nil, _ body: () throws -> T) rethrows -> T {
        TerminalProgress.shared.begin(phase)
        defer { TerminalProgress.shared.end() }
        guard enabled || seconds != nil else { return try body() }
        let start = DispatchTime.now().uptimeNanoseconds
        defer {
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            seconds?(elapsed)
            if enabled {
                printStatus(
                    "timing \(phase) \(String(format: "%.3f", elapsed)) peak-rss \(peakResidentMegabytes.map(String.init) ?? "?")"
                )
            }
        }
        return try body()
    }

    /// The process's peak resident set so far (`VmHWM`), in MB, where `/proc` tells it.
    private static var peakResidentMegabytes: Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kilobytes / 1024
    }
}
