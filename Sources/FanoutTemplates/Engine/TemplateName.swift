/// A name a tag looks up, split on its dots once.
struct TemplateName: Sendable {
    enum Start {
        /// The first part is looked up on every level of the context stack, from the top.
        case stack
        /// `.name`: in the top of the stack only.
        case top
    }

    /// The first part; nil for `.` (the top of the stack itself).
    let head: String?
    /// The parts after the first, each looked up in the value the one before found (usually none).
    let tail: [String]
    let start: Start

    /// Reads `name` as swift-mustache does: `.` is the top of the stack; a leading dot looks in the top only;
    /// empty parts (`a..b`) are dropped.
    init(_ name: String) {
        let parts = name == "." ? [] : name.split(separator: ".").map(String.init)
        head = parts.first
        tail = parts.count > 1 ? Array(parts.dropFirst()) : []
        start = name.first == "." ? .top : .stack
    }

    /// The name as a tag writes it, for messages.
    var text: String {
        guard let head else { return "." }
        return (start == .top ? "." : "") + ([head] + tail).joined(separator: ".")
    }
}
