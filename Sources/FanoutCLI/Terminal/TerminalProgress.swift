import Dispatch
import Foundation

/// Progress on stderr while long phases run, only when stderr is a terminal: the phase's name and elapsed
/// time, and for phases that count their work (rendering pages) a bar. Pipes and CI logs get nothing.
final class TerminalProgress: @unchecked Sendable {
    static let shared = TerminalProgress()

    private let enabled = isatty(2) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    private let lock = NSLock()
    private var phase: String?
    private var started = DispatchTime.now()
    private var done = 0
    private var total = 0
    private var timer: DispatchSourceTimer?

    /// Starts showing `phase`.
    func begin(_ phase: String) {
        guard enabled else { return }
        lock.withLock {
            self.phase = phase
            started = .now()
            done = 0
            total = 0
        }
        if timer == nil {
            let timer = DispatchSource.makeTimerSource(queue: .global())
            timer.schedule(deadline: .now(), repeating: .milliseconds(200))
            timer.setEventHandler { [weak self] in self?.draw() }
            timer.resume()
            self.timer = timer
        }
        draw()
    }

    /// Reports that `done` of `total` units of the current phase are finished.
    func update(done: Int, total: Int) {
        guard enabled else { return }
        lock.withLock {
            self.done = done
            self.total = total
        }
    }

    /// Clears the line at the end of a phase.
    func end() {
        guard enabled else { return }
        lock.withLock { phase = nil }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

    private func draw() {
        let line: String? = lock.withLock {
            guard let phase else { return nil }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
            var line = "\r\u{1B}[K\(phase) \(String(format: "%.1f", seconds))s"
            if total > 0 {
                let width = 30
                let filled = min(width, done * width / total)
                line += " [" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
                    + "] \(done)/\(total)"
            }
            return line
        }
        if let line { FileHandle.standardError.write(Data(line.utf8)) }
    }
}
