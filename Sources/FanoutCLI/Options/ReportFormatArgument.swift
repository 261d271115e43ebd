import ArgumentParser
import FanoutReports

/// `--format`'s value for `check` and `report`.
struct ReportFormatArgument: ExpressibleByArgument {
    let value: ReportFormat

    init?(argument: String) {
        guard let format = ReportFormat(rawValue: argument) else { return nil }
        value = format
    }

    static var allValueStrings: [String] { ReportFormat.allCases.map(\.rawValue) }
}

/// `--format`'s value for a command with formats of its own (`fanout diff`'s ``DiffFormat``, `fanout history`'s
/// ``HistoryFormat``): any name, so that one the command does not write is a usage error naming those it does, in
/// one line (``Swift/Array/formats(of:)``).
struct FormatName<Format: OutputFormat>: ExpressibleByArgument {
    let name: String

    init?(argument: String) { name = argument }

    static var allValueStrings: [String] { Format.allCases.map(\.rawValue) }
}

extension Array {
    /// The formats named, or a usage error (exit 2) naming the first that is none of `Format`'s and the formats
    /// `what` (`a diff`) is written as.
    func formats<Format>(of what: String) throws -> [Format] where Element == FormatName<Format> {
        try map { argument in
            guard let format = Format(rawValue: argument.name) else {
                throw UsageError(message: "--format \(argument.name): \(what) is written as \(Format.listed)")
            }
            return format
        }
    }
}
