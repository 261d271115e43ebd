import ArgumentParser
import FanoutCore
import FanoutLocked
import FanoutOutput
import FanoutServe
import FanoutSite
import Foundation

/// `fanout serve`: the site over HTTP, each page rendered on request, reloaded when its files change.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the feed site over HTTP, rendering each page on request; reload it when files change.",
        discussion: """
            Reads the export once and answers each path that `build` would write with the page it would write \
            there, rendered on request. /u/UID and /p/POSTKEY redirect to a user's timeline and a post's page. \
            When the export, a template or a Content/ page changes, the site loads again in the background and \
            open pages reload; a change that fails to load shows its error on the pages while the last good \
            state keeps serving. The first line printed is the site's URL; Ctrl-C stops. Inside a site project, \
            fanout.toml supplies the export, schema and site settings, as for `build`.
            """
    )

    @OptionGroup var input: ExportOptions
    @OptionGroup var rules: RuleOptions
    @OptionGroup var site: SiteArguments

    @Option(
        help: ArgumentHelp(
            "The port to listen on, \(NumberRange.port.expected); 0 picks a free one (the URL printed says which).",
            valueName: "N"),
        transform: NumberRange.port.parse)
    var port = 1313

    @Option(
        help: ArgumentHelp(
            "The address to listen on: 127.0.0.1 serves this machine only; 0.0.0.0 every network.", valueName: "ADDRESS"
        ))
    var bind = "127.0.0.1"

    @Option(
        help: ArgumentHelp(
            "The most memory rendered pages are kept in, answered again without rendering until their inputs change "
                + "(\(ByteSize.text(SiteServer.Settings.defaultPageCacheBytes)) by default; 1GB, 512KB; 0 keeps none).",
            valueName: "SIZE"),
        transform: { argument in
            guard let bytes = ByteSize.parse(argument) else { throw ValidationError("expected \(ByteSize.expected)") }
            return bytes
        })
    var pageCacheSize = SiteServer.Settings.defaultPageCacheBytes

    @ArgumentParser.Flag(help: "Open the site in the browser (xdg-open, or open on macOS) once it is served.")
    var open = false

    /// The HTTP server, given by the program that runs the commands (``FanoutCommand/main(server:)``).
    static let server = Locked<(any SiteServing)?>(nil)

    func run() throws {
        guard let server = Self.server.withLock({ $0 }) else {
            throw UsageError(
                message: "serve needs an HTTP server, which this program did not give (FanoutCommand.main(server:))")
        }
        let project = try input.project()
        let configuration = try rules.configuration(project, schema: input.layout(project))
        let settings = try site.settings(input, project)
        let export = try input.input(project)
        // Before the export is read, which takes seconds for a large one.
        do {
            try server.checkListen(.init(host: bind, port: port))
        } catch {
            throw UsageError(message: error.description)
        }
        let loader = SiteLoader(export: export, configuration: configuration, settings: settings)
        let pages = try loader.load(exportChanged: true)
        // Standard input is read once: nothing to watch there.
        let watched = SiteServer.WatchedPaths(
            export: export.path == "-" ? [] : [export.path],
            site: [settings.templatesDirectory, settings.contentDirectory].compactMap { $0 })
        let open = self.open
        let exportName = export.path
        let cache =
            pageCacheSize > 0
            ? "rendered pages kept in memory up to \(ByteSize.text(pageCacheSize))"
            : "no rendered page kept (--page-cache-size 0)"
        let outcome = Locked<Result<Void, any Error>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        // Ctrl-C and SIGTERM stop the server gracefully; it returns and the command exits 0.
        let stopper = SiteServer.Stopper()
        TerminationCleanup.stopGracefully(with: { stopper.stop() })
        Task {
            do {
                try await server.run(
                    pages, settings: .init(host: bind, port: port, pageCacheBytes: pageCacheSize), watched: watched,
                    load: { exportChanged in try loader.load(exportChanged: exportChanged) }, stopper: stopper,
                    onListening: { url in
                        // The URL first, on its own line, for scripts; unbuffered (print would wait in a pipe's buffer).
                        printOutput(url + "\n")
                        printStatus("serving \(exportName) at \(url) (Ctrl-C stops); \(cache)")
                        if open { Browser.open(url) }
                    },
                    log: { printStatus($0) })
                outcome.withLock { $0 = .success(()) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
            finished.signal()
        }
        finished.wait()
        switch outcome.withLock({ $0 }) {
        case .failure(let error as SiteServer.ListenError): throw UsageError(message: error.description)
        case .failure(let error): throw error
        case .success, nil: return
        }
    }
}

/// Loads the site for `serve`, at start and on each reload: the export is read, derived and checked again only
/// when it changed or its last read failed; templates and `Content/` are read every time.
final class SiteLoader: Sendable {
    private let export: ExportInput
    private let configuration: AuditConfiguration
    private let settings: SiteSettings
    /// The last export read: what a reload for a template or page reuses.
    private let data = Locked<(dataset: Dataset, derived: DerivedData, audit: AuditResult)?>(nil)

    init(export: ExportInput, configuration: AuditConfiguration, settings: SiteSettings) {
        self.export = export
        self.configuration = configuration
        self.settings = settings
    }

    func load(exportChanged: Bool) throws -> SitePages {
        do {
            let templates = try settings.templates()
            let last = data.withLock { $0 }
            let (dataset, derived, audit): (Dataset, DerivedData, AuditResult)
            if let last, !exportChanged {
                (dataset, derived, audit) = last
            } else {
                // Forgotten before reading: when the export fails to load, the next reload, for whatever change,
                // reads it again, so that its error stays shown until the export loads (docs/serve.md).
                data.withLock { $0 = nil }
                let analysis = try Analysis(export, configuration: configuration)
                (dataset, derived, audit) = (analysis.dataset, analysis.derived, analysis.audit)
                data.withLock { $0 = (dataset, derived, audit) }
            }
            return try PhaseClock.measure("index") {
                try SitePages(
                    dataset: dataset, derived: derived, audit: audit,
                    options: settings.options(exportName: export.path),
                    templates: templates, byPath: true)
            }
        } catch let error as UsageError {
            throw LoadError(description: error.message)
        }
    }

    struct LoadError: Error, CustomStringConvertible {
        let description: String
    }
}

/// Opens a URL in the user's browser, or says on stderr why it could not: never fails the command.
enum Browser {
    static func open(_ url: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        #if os(macOS)
            process.arguments = ["open", url]
        #else
            process.arguments = ["xdg-open", url]
        #endif
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.terminationHandler = { process in
            if process.terminationStatus != 0 {
                printStatus(
                    "note: could not open a browser (\(process.arguments?.first ?? "") exited with "
                        + "\(process.terminationStatus)); open \(url) yourself")
            }
        }
        do {
            try process.run()
        } catch {
            printStatus("note: could not open a browser (\(error.localizedDescription)); open \(url) yourself")
        }
    }
}
