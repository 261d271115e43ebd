/// A database path pattern with named captures, such as `posts/{poster}/{post}`.
///
/// Schemas describe where each relation lives with these patterns; the core renders them back with a fact's
/// keys to name the exact database path a finding is about.
public struct PathPattern: Sendable, Equatable, CustomStringConvertible {
    /// One segment of a pattern.
    public enum Segment: Sendable, Equatable {
        /// A key that must match exactly, such as `posts`.
        case literal(String)
        /// Any key, remembered under this name, such as `{post}`.
        case capture(String)
    }

    /// The segments from the root down.
    public let segments: [Segment]

    /// Parses `text`, e.g. `postLikes/{post}/{user}`. Returns nil for an empty pattern or a malformed capture.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        var segments: [Segment] = []
        for part in parts {
            if part.isEmpty { return nil }
            if part.first == "{" || part.last == "}" {
                guard part.count > 2, part.first == "{", part.last == "}" else { return nil }
                let name = String(part.dropFirst().dropLast())
                guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
                segments.append(.capture(name))
            } else {
                segments.append(.literal(String(part)))
            }
        }
        self.segments = segments
    }

    /// The names of the captures, in order.
    public var captureNames: [String] {
        segments.compactMap { if case .capture(let name) = $0 { name } else { nil } }
    }

    /// The pattern as written.
    public var description: String {
        segments.map {
            switch $0 {
            case .literal(let text): text
            case .capture(let name): "{\(name)}"
            }
        }.joined(separator: "/")
    }

    /// Renders the concrete path, taking each capture's key from `value`.
    package func render(_ value: (String) -> String) -> String {
        segments.map {
            switch $0 {
            case .literal(let text): text
            case .capture(let name): value(name)
            }
        }.joined(separator: "/")
    }
}
