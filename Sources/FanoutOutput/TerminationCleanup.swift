import FanoutLocked
import Foundation

/// Removes this process's temporaries when SIGINT, SIGTERM or SIGHUP stops it, then lets the signal end the
/// process as it would have (exit status 130, 143, 129 to a shell). Installed once by the command line.
///
/// A signal handler may only do async-signal-safe work, and deleting a folder tree is not: the handler writes
/// the signal's number to a pipe, and a thread waiting on the pipe does the cleanup (``LiveTemporaries``).
/// A run killed by SIGKILL cannot clean up; the next run that writes next to its temporaries deletes them
/// (``TemporarySweep``).
public enum TerminationCleanup {
    /// The signals handled.
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    nonisolated(unsafe) private static var pipeWrite: Int32 = -1
    private static let stopHandler = Locked<(@Sendable () -> Void)?>(nil)
    private static let installed: Void = install(signals)

    /// Installs the handlers; later calls do nothing. A signal ignored when the process started (a background
    /// job's SIGINT) stays ignored; one blocked is unblocked, since a process started with it blocked (some
    /// process launchers leave their own mask to their children) would otherwise never see it. Called first thing
    /// on the main thread, so that every thread started later inherits the mask.
    public static func install() { _ = installed }

    /// Makes the next SIGINT or SIGTERM call `stop` (on the cleanup thread) rather than end the process: for a
    /// command that runs until stopped, such as `serve`, which then finishes what it is doing and returns. A
    /// second signal ends the process as usual, so a stop that hangs can still be interrupted.
    public static func stopGracefully(with stop: @escaping @Sendable () -> Void) {
        stopHandler.withLock { $0 = stop }
    }

    private static func install(_ signals: [Int32]) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        pipeWrite = fds[1]
        let reader = fds[0]
        let thread = Thread {
            var signal: Int32 = 0
            while true {
                let n = withUnsafeMutableBytes(of: &signal) { read(reader, $0.baseAddress, $0.count) }
                if n == MemoryLayout<Int32>.size {
                    // A server stops gracefully on the first SIGINT or SIGTERM; the next ends it as below.
                    if signal != SIGHUP,
                        let stop = stopHandler.withLock({ handler in
                            defer { handler = nil }; return handler
                        })
                    {
                        stop()
                        continue
                    }
                    break
                }
                if n < 0 && errno == EINTR { continue }
                return
            }
            LiveTemporaries.removeAll()
            // Ends the process as the signal would have: sent to the process, not to this thread, which may
            // block it; the exit is for the case where every other thread blocks it too.
            Foundation.signal(signal, SIG_DFL)
            kill(getpid(), signal)
            sleep(2)
            _exit(128 + signal)
        }
        thread.name = "fanout-termination-cleanup"
        var handled = sigset_t()
        sigemptyset(&handled)
        for number in signals {
            var action = sigaction()
            var previous = sigaction()
            guard sigaction(number, nil, &previous) == 0, !isIgnore(previous.__sigaction_handler.sa_handler) else {
                continue
            }
            action.__sigaction_handler.sa_handler = { number in
                var number = number
                // write(2) is async-signal-safe; a second signal while the cleanup runs finds the pipe written.
                _ = withUnsafeBytes(of: &number) { write(TerminationCleanup.pipeWrite, $0.baseAddress, $0.count) }
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
            sigaddset(&handled, number)
        }
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
        thread.start()
    }

    private static func isIgnore(_ handler: __sighandler_t?) -> Bool {
        guard let handler else { return false }
        let ignore: __sighandler_t = SIG_IGN
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(ignore, to: Int.self)
    }
}
