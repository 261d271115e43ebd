import FanoutCore

extension RelationKind {
    /// Whether the relation names the end `slot` in a field of its row rather than its path capturing it.
    func hasField(for slot: CaptureSlot, in schema: Schema) -> Bool { endFields(in: schema)[slot] != nil }
}
