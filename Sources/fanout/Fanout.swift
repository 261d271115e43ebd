import ArgumentParser
import FanoutImport
import FanoutRender
import Foundation


/// The `fanout` command: reads a social app's database export, derives feeds, audits copies, renders a site.
@main
struct Fanout: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fanout",
        abstract: "Turn a social app's database export into a feed site, an audit and snapshots.",
        discussion: """
            Exit codes: 0 success (no finding at or above --fail-on); 1 findings at or above --fail-on; \
            2 bad usage or unreadable input (one message on stderr, nothing written).
            """,
        version: "0.1.0",
        subcommands: [BuildCommand.self, CheckCommand.self, ExportCommand.self, GenerateCommand.self, InitCommand.self, SchemasCommand.self]
    )

    /// Runs the command line with Fanout's exit codes: usage errors exit 2, not ArgumentParser's 64.
    static func main() {
        let code: Int32
        do {
            var command = try parseAsRoot()
            try command.run()
            code = 0
        } catch let error as InputError {
            printError(error.description)
            code = 2
        } catch let error as RenderError {
            printError(error.description)
            code = 2
        } catch let error as UsageError {
            printError(error.message)
            code = 2
        } catch {
            let status = exitCode(for: error)
            if status == .success {
                print(fullMessage(for: error))
                code = 0
            } else if status.rawValue == 1 {
                code = 1
            } else {
                let message = fullMessage(for: error)
                if !message.isEmpty { printError(message) }
                code = status == .validationFailure ? 2 : status.rawValue
            }
        }
        Foundation.exit(code)
    }
}

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
