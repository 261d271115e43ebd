import ArgumentParser
import FanoutRender
import Foundation

/// `fanout check`: audits an export and reports its findings.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Audit an export's denormalized copies and print the findings.",
        discussion: "Exits 0 when no finding is at or above --fail-on, 1 when one is, 2 on bad usage or input."
    )

    @OptionGroup var input: ExportOptions
    @OptionGroup var rules: RuleOptions

    @Option(help: "Report format: text, json, markdown or html.")
    var format: ReportFormatArgument = .text

    @Option(name: .shortAndLong, help: "Write the report to this file instead of standard output.")
    var output: String?

    @Option(help: "Exit 1 when a finding is at or above this severity: error, warning, info or never.")
    var failOn: FailOn = .error

    func run() throws {
        let configuration = try rules.configuration()
        let templates = format.value == .html || format.value == .markdown ? try TemplateSet() : nil
        let analysis = try Analysis(input, configuration: configuration)
        let info = ReportInfo(exportName: input.export, schemaName: analysis.dataset.schema.name)
        let report = try ReportWriter.render(analysis.audit, info: info, format: format.value, templates: templates)
        if let output {
            try FileOutput.write(report, to: output)
            printStatus(TextReport.summaryLine(analysis.audit, info: info))
        } else {
            FileHandle.standardOutput.write(Data(report.utf8))
        }
        if let threshold = failOn.threshold, analysis.audit.hasFindings(atOrAbove: threshold) { throw ExitCode(1) }
    }
}

/// `--format`'s value.
struct ReportFormatArgument: ExpressibleByArgument {
    let value: ReportFormat

    init?(argument: String) {
        guard let format = ReportFormat(rawValue: argument) else { return nil }
        value = format
    }

    static let text = ReportFormatArgument(argument: "text")!

    static var allValueStrings: [String] { ReportFormat.allCases.map(\.rawValue) }
}
