import FanoutCore

/// Where the walker keeps a key a path captures: the names the relations use, and a few slots for other names the
/// declarations' patterns capture (`{board}`, `{pushId}`), numbered per schema (``CaptureNames``).
enum CaptureSlot: Int, CaseIterable {
    case user, post, poster, target, id
    case other0, other1, other2, other3

    /// How many other names a schema's patterns may capture.
    static var otherCount: Int { 4 }

    /// The slot of one of the relations' names; nil for other names.
    init?(name: String) {
        switch name {
        case "user": self = .user
        case "post": self = .post
        case "poster": self = .poster
        case "target": self = .target
        case "id": self = .id
        default: return nil
        }
    }

    /// The field role that can stand in for this capture in a row.
    var role: FieldRole {
        switch self {
        case .user: .user
        case .post: .post
        case .target: .target
        case .poster: .owner
        case .id, .other0, .other1, .other2, .other3: .key
        }
    }
}

extension CaptureSlot: CustomStringConvertible {
    /// The capture's name as written in patterns (other names: as numbered).
    var description: String {
        switch self {
        case .user: "user"
        case .post: "post"
        case .poster: "poster"
        case .target: "target"
        case .id: "id"
        default: "other\(rawValue - CaptureSlot.other0.rawValue)"
        }
    }
}

/// The slots of the capture names of one schema: the relations' own, then the other names of its declarations,
/// each given an ``CaptureSlot/other0``… slot in the order met.
struct CaptureNames {
    private var others: [String] = []

    init(_ sets: [RowSet]) {
        for set in sets {
            for name in set.pattern.captureNames where CaptureSlot(name: name) == nil && !others.contains(name) {
                others.append(name)
            }
        }
    }

    /// The slot of `name`; nil past the slots there are (a schema file is told so, see `SchemaFileParser`).
    func slot(_ name: String) -> CaptureSlot? {
        if let slot = CaptureSlot(name: name) { return slot }
        guard let i = others.firstIndex(of: name), i < CaptureSlot.otherCount else { return nil }
        return CaptureSlot(rawValue: CaptureSlot.other0.rawValue + i)
    }
}
