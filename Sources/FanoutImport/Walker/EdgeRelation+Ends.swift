import FanoutCore

extension EdgeRelation {
    /// Whether the row names the end `slot` in a field rather than the path capturing it.
    func hasField(for slot: CaptureSlot) -> Bool {
        switch slot {
        case .user: user != nil
        case .post: post != nil
        case .target: target != nil
        case .poster, .id: false
        }
    }
}
