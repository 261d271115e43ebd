import ArgumentParser
import FanoutImport
import FanoutOutput
import FanoutServe
import FanoutTemplates
import Foundation

/// The `fanout` command: reads a social app's database export, derives feeds, audits copies, renders a site.
public struct FanoutCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "fanout",
        abstract: "Turn a social app's database export into a feed site, an audit and snapshots.",
        discussion: """
            Exit codes: 0 success (no finding at or above --fail-on); 1 findings at or above --fail-on; \
            2 bad usage or unreadable input (one message on stderr, nothing written).
            """,
        version: FanoutVersion.description,
        subcommands: [
            BuildCommand.self, CheckCommand.self, DiffCommand.self, DocumentsCommand.self, ExportCommand.self,
            GenerateCommand.self,
            HistoryCommand.self, InferCommand.self, InitCommand.self,
            ReportCommand.self, SchemasCommand.self, ServeCommand.self, SQLCommand.self, TablesCommand.self,
        ]
    )

    public init() {}

    /// Runs the command line and exits with Fanout's exit codes; `serve` runs `server` (the executable gives
    /// `FanoutServeHTTP`'s), and without one says that it cannot serve.
    public static func main(server: (any SiteServing)?) {
        // A build stopped by Ctrl-C or `kill` deletes its temporary output (docs/commands.md "How outputs are
        // written").
        TerminationCleanup.install()
        Foundation.exit(run(CommandLine.arguments.dropFirst().map { $0 }, server: server))
    }

    /// The command line without an HTTP server (`serve` says that it cannot serve): ArgumentParser's own `main`
    /// would not give Fanout's exit codes.
    public static func main() { main(server: nil) }

    /// Runs `arguments` (without the program's name) and returns the exit code: usage and input errors are 2,
    /// not ArgumentParser's 64, and print one line on stderr.
    public static func run(_ arguments: [String], server: (any SiteServing)? = nil) -> Int32 {
        if let server { ServeCommand.server.withLock { $0 = server } }
        if let message = UnknownCommand.message(arguments) {
            printError(message)
            return 2
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            return 0
        } catch let error as InputError {
            printError(error.description)
        } catch let error as RenderError {
            printError(error.description)
        } catch let error as OutputError {
            printError(error.description)
        } catch let error as UsageError {
            printError(error.message)
        } catch {
            let status = exitCode(for: error)
            if status == .success {
                print(fullMessage(for: error))
                return 0
            }
            // Exit code 1 means findings (``ExitCode`` thrown by check, build and report): any other error the
            // argument parser does not know (one from the HTTP server, say) gets its message and code 2.
            if status.rawValue == 1 {
                if error is ExitCode { return 1 }
                printError(String(describing: error))
                return 2
            }
            // A number out of its range is one line, as every other bad value is, not the option's help and usage.
            let short = message(for: error)
            if status == .validationFailure, short.contains(NumberRange.expectedPrefix) {
                printError(short)
                return 2
            }
            let message = fullMessage(for: error)
            if !message.isEmpty { printError(message) }
            return status == .validationFailure ? 2 : status.rawValue
        }
        return 2
    }
}
