import Foundation

/// A usage problem found after parsing, reported as `error: …` with exit code 2.
struct UsageError: Error {
    let message: String
}

/// Writes one error line to stderr.
func printError(_ message: String) {
    let line = message.hasPrefix("error:") || message.hasPrefix("Error:") ? message : "error: \(message)"
    printStatus(line)
}

/// Writes one line to stderr, where status goes so that stdout stays the report.
func printStatus(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// Writes `text` to standard output.
func printOutput(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
}
