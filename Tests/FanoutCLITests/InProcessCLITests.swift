import FanoutReports
import FanoutTestSupport
import Foundation
import Testing

@testable import FanoutCLI
@testable import FanoutCore

/// The command line's logic, run in this process: pairing `--format` with `--output`, where the export and
/// its settings come from (command line over project file), and exit codes. The end-to-end tests run the binary.
@Suite struct InProcessCLITests {
    typealias AuditRequest = ReportRequest<ReportFormat>

    @Test func formatsPairWithOutputsInOrderAndOneReportMayGoToStandardOutput() throws {
        let requests = try AuditRequest.pair(formats: [.json, .sarif, .text], outputs: ["a.json", "b.sarif"])
        #expect(
            requests == [
                AuditRequest(format: .json, output: "a.json"), AuditRequest(format: .sarif, output: "b.sarif"),
                AuditRequest(format: .text, output: nil),
            ])
        #expect(try AuditRequest.pair(formats: [], outputs: []) == [AuditRequest(format: .text, output: nil)])
        #expect(throws: UsageError.self) { try AuditRequest.pair(formats: [.json, .text], outputs: []) }
        #expect(throws: UsageError.self) { try AuditRequest.pair(formats: [.json], outputs: ["a", "b"]) }
        #expect(throws: UsageError.self) { try AuditRequest.pair(formats: [.json, .sarif], outputs: ["a", "a"]) }
    }

    @Test func theCommandLineOverridesTheProjectFileWhosePathsAreRelativeToIt() throws {
        let temporary = try TemporaryFolder("inprocess")
        defer { withExtendedLifetime(temporary) {} }
        let folder = temporary.url
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("project"), withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("project/site.toml").path
        try Data("export = \"data/export.json\"\nschema = \"instaclone\"\nfail_on = \"warning\"\n".utf8)
            .write(to: URL(fileURLWithPath: file))

        let fromFile = try ExportOptions.parse(["--config", file])
        let project = try fromFile.project()
        let input = try fromFile.input(project)
        #expect(input.path == folder.appendingPathComponent("project/data/export.json").path)
        #expect(input.schema?.name == "instaclone")
        #expect(project.failOn == .warning)

        let overridden = try ExportOptions.parse(["other.json", "--schema", "friendlypix", "--config", file])
        let both = try overridden.input(try overridden.project())
        #expect(both.path == "other.json" && both.schema?.name == "friendlypix")

        let none = try ExportOptions.parse(["--config", "/nonexistent/fanout.toml"])
        #expect(throws: UsageError.self) { try none.project() }
        let unknown = try ExportOptions.parse(["x.json", "--schema", "myspace"])
        #expect(throws: UsageError.self) { try unknown.input(ProjectConfig()) }
    }

    @Test func exitCodesAreTwoForUsageAndInputErrorsAndOneForFindings() throws {
        let demo = CLI.repository.appendingPathComponent("Content/demo-export.json").path
        #expect(FanoutCommand.run(["check", demo, "--format", "json", "--output", "/dev/null"]) == 1)
        #expect(
            FanoutCommand.run(["check", demo, "--fail-on", "never", "--format", "json", "--output", "/dev/null"]) == 0)
        var null = stat()
        #expect(
            stat("/dev/null", &null) == 0 && null.st_mode & S_IFMT == S_IFCHR,
            "an output to /dev/null is written into the device, not renamed over it")
        #expect(FanoutCommand.run(["check", demo, "--rule", "no-such-rule=off"]) == 2)
        #expect(FanoutCommand.run(["check", "/nonexistent/export.json"]) == 2)
        #expect(FanoutCommand.run(["buidl"]) == 2)
        #expect(FanoutCommand.run(["check", "--explain", "follow-self"]) == 0)
        // The commands library has no HTTP server of its own: the executable gives it (FanoutCommand.main(server:)).
        #expect(FanoutCommand.run(["serve", demo, "--port", "0"]) == 2)
    }

    @Test func messagesListWhatTheCodeKnows() {
        #expect(FailOn.listed == "error, warning, info or never")
        #expect(RuleCatalog.unknownMessage("x").hasPrefix("unknown rule \"x\"; known rules: like-count-mismatch, "))
        let scaffold = ProjectScaffold.configFile(export: "export.json")
        #expect(scaffold.contains("a preset (makestagram, instaclone, friendlypix, instagram-flutter, parse)"))
    }

    @Test func theEmbeddedDemoExportIsContentDemoExport() throws {
        let file = CLI.repository.appendingPathComponent("Content/demo-export.json")
        #expect(DemoExport.text == (try String(contentsOf: file, encoding: .utf8)), "run `make templates`")
    }
}
