/// The formats one command writes in: `check`'s and `report`'s (``ReportFormat``), `fanout diff`'s (``DiffFormat``),
/// `fanout history`'s (``HistoryFormat``). Each command takes only its own, so that a format it does not write is a
/// usage error naming those it does, never another format's text.
public protocol OutputFormat: RawRepresentable, CaseIterable, Sendable, Hashable where RawValue == String {
    /// The format written when none is asked for.
    static var text: Self { get }
}

extension OutputFormat {
    /// The formats, as help texts and messages list them: `text, json, … or gitlab`.
    package static var listed: String {
        let names = allCases.map(\.rawValue)
        return names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}
