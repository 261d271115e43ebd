import FanoutCore

/// What a report says about the run besides its findings.
public struct ReportInfo: Sendable {
    /// The export's name as the user gave it.
    public var exportName: String
    /// The schema's name.
    public var schemaName: String
    /// What the baseline hid and which of its entries are fixed, when the run used one.
    public var baseline: BaselineOutcome?
    /// The Realtime Database namespaces of an emulator folder read as one export (each file of its
    /// `database_export/`, without `.json`), when it holds more than one; else empty.
    public var namespaces: [String] = []

    /// Report metadata.
    public init(
        exportName: String, schemaName: String, baseline: BaselineOutcome? = nil, namespaces: [String] = []
    ) {
        self.exportName = exportName
        self.schemaName = schemaName
        self.baseline = baseline
        self.namespaces = namespaces
    }

    /// `Realtime Database namespaces a, b`, for the reports' headers; nil when there are not several.
    public var namespacesText: String? {
        namespaces.isEmpty ? nil : "Realtime Database namespaces " + namespaces.joined(separator: ", ")
    }
}
