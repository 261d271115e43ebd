import FanoutCore

/// Where the walker keeps what the declarations' row sets read (``RowSets``, docs/layouts.md "Declaring your app's
/// copies"): per set, the capture slots of its pattern, the value slots of its key fields and of its value, all
/// after the relations' own slots (``FieldRole/slotCount``).
struct DeclaredRowLayout {
    /// Per set: its captures' slots, its key fields' value slots, its value's slot.
    let sets: [(captures: [CaptureSlot], keyFields: [Int], value: Int?)]
    /// Per set, the field paths it reads and the value slot of each.
    let fields: [[(path: FieldPath, slot: Int)]]
    /// The number of value slots of the relations and the sets together.
    let slotCount: Int
    /// Per value slot of the sets, whether it holds a key.
    let keySlots: [Bool]

    init(_ sets: [RowSet]) throws(InputError) {
        let names = CaptureNames(sets)
        var layout: [(captures: [CaptureSlot], keyFields: [Int], value: Int?)] = []
        var fields: [[(path: FieldPath, slot: Int)]] = []
        var keySlots: [Bool] = []
        var next = FieldRole.slotCount
        func slot(_ path: FieldPath, isKey: Bool, into list: inout [(path: FieldPath, slot: Int)]) -> Int {
            list.append((path, next))
            keySlots.append(isKey)
            next += 1
            return next - 1
        }
        for set in sets {
            var captures: [CaptureSlot] = []
            for name in set.pattern.captureNames {
                guard let slot = names.slot(name) else {
                    throw InputError.schema(
                        "the declarations capture more than \(CaptureSlot.otherCount) names besides user, post, poster, target and id"
                    )
                }
                captures.append(slot)
            }
            var read: [(path: FieldPath, slot: Int)] = []
            let keyFields = set.keyFields.map { slot($0, isKey: true, into: &read) }
            var value: Int?
            if case .field(let path)? = set.value { value = slot(path, isKey: false, into: &read) }
            layout.append((captures, keyFields, value))
            fields.append(read)
        }
        self.sets = layout
        self.fields = fields
        self.keySlots = keySlots
        slotCount = next
    }
}
