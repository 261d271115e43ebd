import FanoutImport

/// A table's columns (``Table/columns``, typed as Spark SQL writes them) as a Parquet schema: the elements of the
/// footer's schema, depth first, and the leaf columns whose values the pages hold (docs/tables.md "Parquet").
///
/// `string` is a `BYTE_ARRAY` annotated `STRING` (converted type `UTF8`), `bigint` an `INT64`, `double` a `DOUBLE`,
/// `boolean` a `BOOLEAN`; `array<struct<…>>` the standard three-level list (an optional group annotated `LIST`, a
/// repeated group `list`, a required group `element` with a required leaf per field). A top-level column is
/// optional (null where the NDJSON row has `null`) but for `path` and `seq`, which every row of every table holds.
struct ParquetSchema {
    /// The physical types written, with their codes in the Parquet format.
    enum Physical: Int32 {
        case boolean = 0
        case int64 = 2
        case double = 5
        case byteArray = 6
    }

    /// `REQUIRED`, `OPTIONAL`, `REPEATED`.
    enum Repetition: Int32 {
        case required = 0
        case optional = 1
        case repeated = 2
    }

    /// An element of the footer's schema list (`SchemaElement`).
    struct Element: Equatable {
        var name: String
        var physical: Physical?
        var repetition: Repetition?
        var children: Int?
        /// A `STRING` (`UTF8`) or `LIST` annotation.
        var annotation: Annotation?
        enum Annotation { case string, list }
    }

    /// A leaf column: where it is in the schema, its type, and its largest definition and repetition levels.
    struct Leaf: Equatable {
        var path: [String]
        var physical: Physical
        var maxDefinition: Int
        var maxRepetition: Int
    }

    /// How a top-level column's JSON value is written into leaves.
    enum Field {
        /// A scalar in leaf `leaf`; `required`: null is refused.
        case scalar(leaf: Int, required: Bool)
        /// An array of objects whose members, in order, are leaves `leaves` (required, as the elements).
        case structList(members: [[UInt8]], leaves: [Int])
    }

    /// Columns every row of every table holds, written as required.
    static let requiredColumns: Set<String> = ["path", "seq"]

    private(set) var elements: [Element] = []
    private(set) var leaves: [Leaf] = []
    /// Per top-level column: its name's UTF-8 bytes and how its value is written.
    private(set) var fields: [(name: [UInt8], field: Field)] = []

    struct UnsupportedType: Error, CustomStringConvertible {
        let type: String
        var description: String { "no Parquet mapping for the column type \(type)" }
    }

    init(table: Table) {
        // The tables' types are fixed in code, and a test writes every table: a type without a mapping is a bug.
        try! self.init(columns: table.columns.map { ($0.name, $0.type) })
    }

    init(columns: [(name: String, type: String)]) throws {
        elements.append(Element(name: "schema", children: columns.count))
        for (name, type) in columns {
            let required = Self.requiredColumns.contains(name)
            if let physical = Self.scalar(type) {
                elements.append(
                    Element(
                        name: name, physical: physical, repetition: required ? .required : .optional,
                        annotation: physical == .byteArray ? .string : nil))
                leaves.append(Leaf(path: [name], physical: physical, maxDefinition: required ? 0 : 1, maxRepetition: 0))
                fields.append((Array(name.utf8), .scalar(leaf: leaves.count - 1, required: required)))
                continue
            }
            guard type.hasPrefix("array<struct<"), type.hasSuffix(">>") else { throw UnsupportedType(type: type) }
            let body = type.dropFirst("array<struct<".count).dropLast(2)
            var members: [(String, Physical)] = []
            for member in body.split(separator: ",") {
                let pieces = member.split(separator: ":", maxSplits: 1)
                guard pieces.count == 2, let physical = Self.scalar(String(pieces[1])) else {
                    throw UnsupportedType(type: type)
                }
                members.append((String(pieces[0]), physical))
            }
            elements.append(Element(name: name, repetition: .optional, children: 1, annotation: .list))
            elements.append(Element(name: "list", repetition: .repeated, children: 1))
            elements.append(Element(name: "element", repetition: .required, children: members.count))
            var memberLeaves: [Int] = []
            for (member, physical) in members {
                elements.append(
                    Element(
                        name: member, physical: physical, repetition: .required,
                        annotation: physical == .byteArray ? .string : nil))
                // Definition 0: the list is null; 1: empty; 2: an element (whose fields are required).
                leaves.append(
                    Leaf(
                        path: [name, "list", "element", member], physical: physical, maxDefinition: 2, maxRepetition: 1)
                )
                memberLeaves.append(leaves.count - 1)
            }
            fields.append(
                (Array(name.utf8), .structList(members: members.map { Array($0.0.utf8) }, leaves: memberLeaves)))
        }
    }

    private static func scalar(_ type: String) -> Physical? {
        switch type {
        case "string": .byteArray
        case "bigint": .int64
        case "double": .double
        case "boolean": .boolean
        default: nil
        }
    }
}
