import Foundation

/// What a finished process gave back: its exit code and what it wrote.
public struct ProcessResult: Sendable, Equatable {
    public let code: Int32
    public let stdout: String
    public let stderr: String
    /// Standard output's bytes, for output that is not text.
    public let stdoutData: Data

    public init(code: Int32, stdout: String, stderr: String, stdoutData: Data? = nil) {
        self.code = code
        self.stdout = stdout
        self.stderr = stderr
        self.stdoutData = stdoutData ?? Data(stdout.utf8)
    }
}

/// Runs `executable` with `arguments` to its end and captures its exit code, standard output and standard error.
/// `directory`: where it runs (this process's folder when nil); `stdin`: what it reads (nothing when nil);
/// `environment`: variables set for it, over this process's. Standard input is fed and standard error drained on
/// their own threads, so that a child that fills one pipe while the test reads the other cannot deadlock.
@discardableResult
public func runProcess(
    _ executable: URL, _ arguments: [String], in directory: URL? = nil, stdin: Data? = nil,
    environment: [String: String] = [:]
) throws -> ProcessResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if !environment.isEmpty {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    if let directory { process.currentDirectoryURL = directory }
    let out = Pipe(), err = Pipe(), input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    let writer = input.fileHandleForWriting
    let feeding = Thread {
        // A child may stop reading before the end (fanout refuses a stream at its first byte that no export starts
        // with): SIGPIPE, blocked on this thread alone (children keep its default), leaves the write failing with
        // EPIPE, which is dropped, instead of killing the test process.
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
        if let stdin { try? writer.write(contentsOf: stdin) }
        try? writer.close()
    }
    feeding.start()
    let errors = DataBox()
    let draining = Thread {
        errors.data = err.fileHandleForReading.readDataToEndOfFile()
        errors.done.signal()
    }
    draining.start()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    errors.done.wait()
    process.waitUntilExit()
    return ProcessResult(
        code: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errors.data, as: UTF8.self), stdoutData: outData)
}

/// Runs the tool `name` found on PATH (through `/usr/bin/env`), as `runProcess` does.
@discardableResult
public func runTool(
    _ name: String, _ arguments: [String], in directory: URL? = nil, stdin: Data? = nil,
    environment: [String: String] = [:]
) throws -> ProcessResult {
    try runProcess(
        URL(fileURLWithPath: "/usr/bin/env"), [name] + arguments, in: directory, stdin: stdin, environment: environment)
}

/// The executable `name` built by `swift build` next to the test bundle (`FANOUT_BINARY` overrides it for `fanout`).
public func builtExecutable(_ name: String) -> URL {
    if name == "fanout", let path = ProcessInfo.processInfo.environment["FANOUT_BINARY"] {
        return URL(fileURLWithPath: path)
    }
    let candidates =
        [
            Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        ] + Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
    for folder in candidates {
        let url = folder.appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return candidates[0].appendingPathComponent(name)
}

/// Bytes read by another thread, handed over through a semaphore.
public final class DataBox: @unchecked Sendable {
    public var data = Data()
    public let done = DispatchSemaphore(value: 0)
    public init() {}
}

/// A tool that ended with a non-zero exit code.
public struct ProcessFailure: Error, CustomStringConvertible {
    public let command: [String]
    public let result: ProcessResult
    public var description: String { "\(command.joined(separator: " ")) exited \(result.code): \(result.stderr)" }
}

extension TemporaryFolder {
    /// Runs the tool `name` (found on PATH) with `arguments` in the folder, and returns its standard output; throws
    /// `ProcessFailure` when it fails.
    @discardableResult
    public func run(_ name: String, _ arguments: String..., input: Data? = nil) throws -> Data {
        let result = try runTool(name, arguments, in: url, stdin: input)
        guard result.code == 0 else { throw ProcessFailure(command: [name] + arguments, result: result) }
        return result.stdoutData
    }
}

/// Runs `other` on a thread of its own while `this` runs on the caller's, and returns both results (or the first
/// error): two processes side by side without blocking a second thread of Swift Testing's pool, which has one a
/// core.
public func sideBySide<A: Sendable, B>(
    _ other: @escaping @Sendable () throws -> A, _ this: () throws -> B
) throws -> (A, B) {
    let outcome = SideOutcome<A>()
    Thread.detachNewThread {
        outcome.result = Result(catching: other)
        outcome.done.signal()
    }
    let mine = Result(catching: this)
    outcome.done.wait()
    return (try outcome.result!.get(), try mine.get())
}

/// What `sideBySide`'s other thread hands over: written before it signals `done`, read after waiting for it.
private final class SideOutcome<A>: @unchecked Sendable {
    var result: Result<A, any Error>?
    let done = DispatchSemaphore(value: 0)
}
