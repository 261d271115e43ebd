import FanoutTemplates

/// Markdown code spans for values that must show exactly as they are (paths, JSON values).
///
/// Backslash escapes do not work inside code spans, so escaping such text the way the rest of a Markdown page
/// is escaped would show the backslashes (`like\_count`). Instead the span's fence is made longer than any run
/// of backticks inside, as CommonMark allows, and line breaks are folded into spaces. Templates insert these
/// unescaped (`{{{…}}}`).
enum MarkdownCode {
    static func span(_ text: String) -> String {
        let flat = String(VisibleCharacters.forDocuments(text).map { $0.isNewline ? " " : $0 })
        var longest = 0, run = 0
        for character in flat {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let pad = flat.hasPrefix("`") || flat.hasSuffix("`") || flat.isEmpty ? " " : ""
        return fence + pad + flat + pad + fence
    }
}
