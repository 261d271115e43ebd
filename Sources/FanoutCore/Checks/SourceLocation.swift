/// Where a finding's first path is in the export's files: what `export.json:1234:17` in the text report, the
/// JSON report's `line` and `column` and SARIF's regions say.
///
/// Rules never set it: the audit works on the core, which keeps no byte offsets, so a second pass over the
/// export finds the paths that have findings (`PathLocator` in FanoutImport; docs/reports.md).
public struct SourceLocation: Sendable, Hashable {
    /// The file as reports name it: the export as the user gave it, or a class file of a Parse export folder.
    public var file: String
    /// The 1-based line (only LF starts a line).
    public var line: Int
    /// The 1-based column, in Unicode scalars from the start of the line.
    public var column: Int

    /// A location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, the form editors and terminals open.
    public var description: String { "\(file):\(line):\(column)" }
}
