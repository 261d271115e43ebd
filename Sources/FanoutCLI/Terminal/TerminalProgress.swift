import Dispatch
import FanoutCore
import FanoutLocked
import Foundation

/// Progress on stderr while long phases run, only when stderr is a terminal: the phase's name and elapsed
/// time, and for phases that count their work (rendering pages) a bar. Pipes and CI logs get nothing.
final class TerminalProgress: Sendable {
    static let shared = TerminalProgress()

    /// What the line shows.
    private struct State {
        var phase: String?
        var started = DispatchTime.now()
        var done = 0
        var total = 0
        /// Redraws the line every 200 ms once the first phase began.
        var timer: DispatchSourceTimer?
    }

    private let enabled = isatty(2) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    private let state = Locked(State())

    /// Starts showing `phase`.
    func begin(_ phase: String) {
        guard enabled else { return }
        state.withLock { state in
            state.phase = phase
            state.started = .now()
            state.done = 0
            state.total = 0
            if state.timer == nil {
                let timer = DispatchSource.makeTimerSource(queue: .global())
                timer.schedule(deadline: .now(), repeating: .milliseconds(200))
                timer.setEventHandler { [weak self] in self?.draw() }
                timer.resume()
                state.timer = timer
            }
        }
        draw()
    }

    /// Reports that `done` of `total` units of the current phase are finished.
    func update(done: Int, total: Int) {
        guard enabled else { return }
        state.withLock { state in
            state.done = done
            state.total = total
        }
    }

    /// Clears the line at the end of a phase.
    func end() {
        guard enabled else { return }
        state.withLock { $0.phase = nil }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

    private func draw() {
        let line: String? = state.withLock { state in
            guard let phase = state.phase else { return nil }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - state.started.uptimeNanoseconds) / 1e9
            var line = "\r\u{1B}[K\(phase) \(String(format: "%.1f", seconds))s"
            if state.total > 0 {
                let width = 30
                let filled = min(width, state.done * width / state.total)
                line +=
                    " [" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
                    + "] \(state.done)/\(state.total)"
            }
            return line
        }
        if let line { FileHandle.standardError.write(Data(line.utf8)) }
    }
}
