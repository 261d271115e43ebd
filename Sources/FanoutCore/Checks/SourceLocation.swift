/// Where a finding's first path is in the export's files: what `export.json:1234:17` in the text report, the
/// JSON report's `line` and `column` and SARIF's regions say.
///
/// Rules never set it: the audit works on the core, which keeps no byte offsets, so a second pass over the
/// export finds the paths that have findings (`PathLocator` in FanoutImport; docs/reports.md).
///
/// In a file that is no text, a Cloud Firestore export's `output-N` (a LevelDB log of binary records), the place
/// is a byte offset, ``byteOffset``: where the record of the finding's document starts. Its line and column are
/// then those of that byte, counted as in a text file, so that a consumer that needs a line (GitHub code scanning
/// rejects a SARIF result without one) is given the same place.
public struct SourceLocation: Sendable, Hashable {
    /// The file as reports name it: the export as the user gave it, a class file of a Parse export folder, or an
    /// `output-N` file of a Firestore export.
    public var file: String
    /// The 1-based line (only LF starts a line).
    public var line: Int
    /// The 1-based column, in Unicode scalars from the start of the line.
    public var column: Int
    /// The 0-based byte offset in `file`, for a file that is no text (a Firestore export's record); nil in a text
    /// file, where line and column say where.
    public var byteOffset: Int?

    /// A location in a text file.
    public init(file: String, line: Int, column: Int) {
        self.init(file: file, line: line, column: column, byteOffset: nil)
    }

    /// A location; `byteOffset` for a file that is no text, with the line and column of that byte.
    public init(file: String, line: Int, column: Int, byteOffset: Int?) {
        self.file = file
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
    }

    /// `file:line:column`, the form editors and terminals open; `file: byte N` for a file that is no text (the
    /// form of the errors about a damaged record of the same file).
    public var description: String {
        if let byteOffset { return "\(file): byte \(byteOffset)" }
        return "\(file):\(line):\(column)"
    }
}
