import FanoutCore

/// The capture names the domain understands. Patterns may use no others.
enum CaptureSlot: Int, CaseIterable {
    case user, post, poster, target, id

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
        case .id: .key
        }
    }
}

extension CaptureSlot: CustomStringConvertible {
    /// The capture's name as written in patterns.
    var description: String {
        switch self {
        case .user: "user"
        case .post: "post"
        case .poster: "poster"
        case .target: "target"
        case .id: "id"
        }
    }
}
