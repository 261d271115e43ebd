import FanoutJSON

/// Finds rows of a Parse class file (`{"results": [...]}` or a bare array of objects) by their `objectId`: the
/// line and column of each row's `{`, or of a field's key inside it.
///
/// Findings name Parse rows `Class/<objectId>` and their fields `Class/<objectId>/field` (docs/layouts.md "Parse
/// exports"); a path below a field (`Post/<id>/user/objectId`) is placed at the field, its nearest ancestor, and a row
/// that is not in the file at the start of the file.
enum ParseRowLocator {
    /// Where each of `rows` (`objectId` → the fields wanted in that row, by their first key) is in `buffer`.
    /// Keys of the result are `objectId` for the row and `objectId/field` for a field.
    static func locate(_ rows: [String: Set<String>], in buffer: UnsafeRawBufferPointer) throws(JSONSyntaxError)
        -> [String: TextPosition]
    {
        let fieldNames = rows.values.reduce(into: Set<String>()) { $0.formUnion($1) }
        var offsets: [String: Int] = [:]
        var reader = JSONReader(buffer)
        func readRows(_ reader: inout JSONReader) throws(JSONSyntaxError) {
            try reader.beginArray()
            while try reader.nextElement() {
                guard try reader.peekKind() == .object else {
                    try reader.skipValueUnchecked()
                    continue
                }
                let start = TextPosition.skipping(whitespaceIn: buffer, from: reader.offset)
                var id: String?
                var fields: [String: Int] = [:]
                try reader.beginObject()
                while true {
                    let before = reader.offset
                    guard let key = try reader.nextKeyString() else { break }
                    if key == "objectId", try reader.peekKind() == .string {
                        id = try reader.readString()
                    } else {
                        if fieldNames.contains(key), fields[key] == nil {
                            fields[key] = TextPosition.skipping(whitespaceIn: buffer, from: before, commas: true)
                        }
                        try reader.skipValueUnchecked()
                    }
                }
                guard let id, let wanted = rows[id], offsets[id] == nil else { continue }
                offsets[id] = start
                for field in wanted { offsets["\(id)/\(field)"] = fields[field] ?? start }
            }
        }
        let top = TextPosition.skipping(whitespaceIn: buffer, from: reader.offset)
        switch top < buffer.count ? try reader.peekKind() : .null {
        case .array:
            try readRows(&reader)
        case .object:
            try reader.beginObject()
            while let key = try reader.nextKeyString() {
                if key == "results", try reader.peekKind() == .array {
                    try readRows(&reader)
                } else {
                    try reader.skipValueUnchecked()
                }
            }
        default:
            break
        }
        // Rows not in the file: the start of the file.
        for (id, wanted) in rows where offsets[id] == nil {
            offsets[id] = top
            for field in wanted { offsets["\(id)/\(field)"] = top }
        }
        let positions = TextPosition.positions(of: Array(Set(offsets.values)), in: buffer)
        return offsets.mapValues { positions[$0]! }
    }
}
