import Foundation

/// A usage problem found after parsing, reported as `Error: …` with exit code 2.
struct UsageError: Error {
    let message: String
}

/// Writes one error line to stderr, `Error: …`, the way ArgumentParser starts its own, so that every error
/// Fanout prints looks the same whoever found it.
func printError(_ message: String) {
    printStatus(message.hasPrefix("Error: ") ? message : "Error: \(message)")
}

/// Writes one line to stderr, where status goes so that stdout stays the report.
func printStatus(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// Writes `text` to standard output.
func printOutput(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
}
