import FanoutCore

/// `[records.NAME]`: the app's other collections (docs/layouts.md "Records of any collection"), each with its path,
/// an optional key field and named fields.
extension SchemaFileParser {
    static let recordKeys = ["path", "key", "fields"]

    func records(from top: Entries) throws(InputError) -> [RecordRelation] {
        guard let table = try top.table("records") else { return [] }
        var found: [RecordRelation] = []
        for name in table.table?.keys.sorted() ?? [] {
            guard let entries = try table.relation(name, keys: Self.recordKeys) else { continue }
            let isIDCharacter = { (c: Unicode.Scalar) in
                c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "_" || c == "-")
            }
            guard name.unicodeScalars.allSatisfy(isIDCharacter),
                name.unicodeScalars.first?.properties.isAlphabetic == true
            else {
                throw fail(
                    entries.path,
                    "\"\(name)\" is not a collection name: letters, digits, - and _, starting with a letter")
            }
            if let builtIn = DeclaredRelation.builtIn.first(where: { $0.rawValue == name }) {
                throw fail(
                    entries.path,
                    "\(builtIn.rawValue) is a built-in relation; place it with [\(builtIn.rawValue)] and give other "
                        + "collections a name of their own")
            }
            let pattern = try entries.pattern()
            guard let keyName = pattern.captureNames.last else {
                throw failAtWritten(
                    entries.path + ["path"],
                    "\"\(pattern)\" captures nothing; capture each record's key, e.g. \"\(name)/{\(DeclaredRelation.records(name).noun)}\""
                )
            }
            let record = RecordRelation(
                name: name, pattern: pattern, key: try entries.field("key"), fields: try entries.namedFields("fields"))
            if record.fields[keyName] != nil {
                throw fail(
                    entries.path + ["fields", keyName],
                    "{\(keyName)} is the records' key (the path's last capture); give the field another name or read the key from it with key = \"…\""
                )
            }
            found.append(record)
        }
        return found
    }

}
