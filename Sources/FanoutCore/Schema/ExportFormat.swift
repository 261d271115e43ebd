/// How an export is stored, which decides how Fanout opens it.
public enum ExportFormat: String, Sendable, Equatable, CaseIterable {
    /// One JSON tree, as the Firebase console or an automated backup exports it (plain or gzip).
    case firebase
    /// A folder or `.zip` of one JSON file per class (`_User.json`, `Post.json`, …), as Parse exports it.
    /// Each relation's path starts with its class name.
    case parse
}
