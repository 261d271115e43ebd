import ArgumentParser
import FanoutCore
import FanoutOutput
import FanoutReports
import FanoutTemplates

/// The reports of one run: all rendered before any is written (so that a failure writes nothing), then written
/// to their files, the one without a file printed, and on stderr what was written and the summary line — the
/// same for `check` and `report`, so that both give the same bytes and exit codes (docs/reports.md).
struct RenderedReports<Format: OutputFormat> {
    let reports: [(request: ReportRequest<Format>, text: String)]

    /// Reports already rendered (`fanout diff`'s, `fanout history`'s), each with its request.
    init(rendered: [(request: ReportRequest<Format>, text: String)]) {
        reports = rendered
    }

    /// Writes each report that has an output file, atomically; returns the files written.
    func writeFiles() throws -> [String] {
        var wrote: [String] = []
        for (request, report) in reports {
            guard let output = request.output else { continue }
            try AtomicFile.write(report, to: output)
            wrote.append(output)
        }
        return wrote
    }

    /// Prints the report that goes to standard output, and names on stderr the files written (`wrote`), if any.
    func show(wrote: [String]) {
        if let report = reports.first(where: { $0.request.output == nil }) {
            printOutput(report.text)
        }
        if !wrote.isEmpty { printStatus("wrote \(wrote.joined(separator: ", "))") }
    }
}

extension RenderedReports<ReportFormat> {
    /// The built-in templates when a requested format needs them (HTML, Markdown), else nil.
    static func templates(for requests: [ReportRequest<ReportFormat>]) throws -> TemplateSet? {
        requests.contains { $0.format == .html || $0.format == .markdown } ? try TemplateSet.builtIn() : nil
    }

    /// Renders every request; `coverage` feeds the HTML chart and the JSON report's `summary.timeline_coverage`.
    init(
        _ requests: [ReportRequest<ReportFormat>], audit: AuditResult, info: ReportInfo, templates: TemplateSet?,
        coverage: TimelineCoverage?, options: ReportOptions
    ) throws {
        reports = try requests.map { request in
            (
                request,
                try ReportWriter.render(
                    audit, info: info, format: request.format, templates: templates, coverage: coverage,
                    text: options.textOptions(toTerminal: request.output == nil))
            )
        }
    }

    /// ``show(wrote:)``, then, when files were written, the baseline's outcome (unless a text report on stdout
    /// said it) and the summary line on stderr.
    func finish(wrote: [String], audit: AuditResult, info: ReportInfo) {
        show(wrote: wrote)
        guard !wrote.isEmpty else { return }
        if let outcome = info.baseline,
            !reports.contains(where: { $0.request.output == nil && $0.request.format == .text })
        {
            printStatus(TextReport.baselineLine(outcome))
        }
        printStatus(TextReport.summaryLine(audit, info: info))
    }
}
