import FanoutCore

/// What a report says about the run besides its findings.
public struct ReportInfo: Sendable {
    /// The export's name as the user gave it.
    public var exportName: String
    /// The schema's name.
    public var schemaName: String

    /// Report metadata.
    public init(exportName: String, schemaName: String) {
        self.exportName = exportName
        self.schemaName = schemaName
    }
}
