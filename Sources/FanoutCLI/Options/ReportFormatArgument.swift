import ArgumentParser
import FanoutReports

/// `--format`'s value.
struct ReportFormatArgument: ExpressibleByArgument {
    let value: ReportFormat

    init?(argument: String) {
        guard let format = ReportFormat(rawValue: argument) else { return nil }
        value = format
    }

    static var allValueStrings: [String] { ReportFormat.allCases.map(\.rawValue) }
}
