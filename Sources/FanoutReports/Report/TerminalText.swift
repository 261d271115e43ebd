import FanoutTemplates

/// Escaping for text shown in a terminal or a CI log.
///
/// Export data reaches the text report verbatim otherwise: a username holding a line break followed by
/// `::error::…` would become a GitHub workflow command when `fanout check` runs in Actions, and an ESC sequence
/// could retitle or rewrite the reader's terminal. Control characters (C0, DEL, C1) are spelled as `\u{…}`, as
/// in the XML reports, so every report line is one Fanout wrote.
enum TerminalText {
    static func escape(_ text: String) -> String { VisibleCharacters.spell(text, where: isControl) }

    /// U+2028 and U+2029 are included: some log viewers break lines there.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029
    }
}
