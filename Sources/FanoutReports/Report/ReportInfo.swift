import FanoutCore

/// What a report says about the run besides its findings.
public struct ReportInfo: Sendable {
    /// The export's name as the user gave it.
    public var exportName: String
    /// The schema's name.
    public var schemaName: String
    /// What the baseline hid and which of its entries are fixed, when the run used one.
    public var baseline: BaselineOutcome?

    /// Report metadata.
    public init(exportName: String, schemaName: String, baseline: BaselineOutcome? = nil) {
        self.exportName = exportName
        self.schemaName = schemaName
        self.baseline = baseline
    }
}
