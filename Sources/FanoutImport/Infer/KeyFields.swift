import FanoutJSON

/// Records named by a field rather than by the key they are stored under (`users/{random}` with `uid`, posts
/// numbered by `postID`): the field others name them by becomes their key, as `key = "…"` reads it
/// (docs/layouts.md "Schema files").
extension ShapeScan {
    /// The field of a top-level record set whose values are unique, present in nearly every record, and named by
    /// other records more often than the stored keys are, with the set re-keyed by it.
    package mutating func rekeyByFields() -> [String: String] {
        var chosen: [String: String] = [:]
        for index in records.indices where records[index].place.count == 2 {
            let set = records[index]
            guard set.items.count >= 2, let field = keyField(set) else { continue }
            let items = set.items.map { item in
                Item(
                    path: item.path, keys: Array(item.keys.dropLast()) + [Inference.idString(item.value[field])!],
                    value: item.value)
            }
            records[index] = RecordSet(
                place: set.place, items: items, keys: Set(items.map { $0.keys.last! }), fields: set.fields)
            chosen[Inference.label(set.place)] = field
        }
        return chosen
    }

    private func keyField(_ set: RecordSet) -> String? {
        var best: (String, Int)?
        // A key field is called so (`id`, `uid`, `postID`, `key`).
        for field in set.fields where !field.contains("/") {
            let name = Inference.normalized(field)
            guard name.hasSuffix("id") || name.hasSuffix("key") else { continue }
            let values = set.items.compactMap { Inference.idString($0.value[field]) }
            guard values.count * 10 >= set.items.count * 9, Set(values).count == values.count else { continue }
            let named = Set(values)
            // Values that are another collection's keys make a reference, not a key.
            let elsewhere = records.contains { other in
                other.place != set.place && values.filter { other.keys.contains($0) }.count * 2 > values.count
            }
            guard !elsewhere else { continue }
            // Where it is the stored key already, it adds nothing.
            guard values.filter({ !set.keys.contains($0) }).count * 2 > values.count else { continue }
            var votes = 0
            for other in records where other.place != set.place {
                for otherField in other.fields {
                    let sample = other.items.prefix(2_000).compactMap { Inference.idString($0.value.at(otherField)) }
                    guard !sample.isEmpty else { continue }
                    let byField = sample.filter { named.contains($0) }.count
                    let byKey = sample.filter { set.keys.contains($0) }.count
                    if byField * 2 >= sample.count, byField > byKey { votes += 1 }
                }
            }
            for edge in edges {
                let sample = edge.pairs.prefix(2_000)
                for ends in [sample.map(\.from), sample.map(\.to)] {
                    let byField = ends.filter { named.contains($0) }.count
                    let byKey = ends.filter { set.keys.contains($0) }.count
                    if byField * 2 >= ends.count, byField > byKey { votes += 1 }
                }
            }
            if votes > (best?.1 ?? 0) { best = (field, votes) }
        }
        return best?.0
    }
}
