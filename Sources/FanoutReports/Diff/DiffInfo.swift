/// What a diff's reports say about the run besides the comparison: the two exports as the user named them and
/// their layout.
public struct DiffInfo: Sendable {
    public var oldName: String
    public var newName: String
    public var schemaName: String

    public init(oldName: String, newName: String, schemaName: String) {
        self.oldName = oldName
        self.newName = newName
        self.schemaName = schemaName
    }
}
