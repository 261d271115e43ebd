import FanoutCore
import FanoutJSON

/// Firestore documents as JSON: one line a document with its types kept (`fanout documents`), or one tree in
/// the shape of a Realtime Database export, which schema files describe and the walker reads (`--tree`).
///
/// Typed lines follow the convention of the decoded documents in the tests' data: a timestamp is
/// `{"__timestamp__": "2023-12-21T15:39:16.609Z"}`, a reference `{"__ref__": "users/abc"}`, a geo point
/// `{"__geo__": [lat, lng]}`, bytes `{"__bytes__": "<base64>"}`, a double that JSON cannot write
/// `{"__double__": "NaN"}`; integers are written exactly and doubles with a fraction or an exponent (`1.0`), so the
/// two stay apart. In the tree every value is plain JSON: timestamps as RFC 3339 strings (`unit = "iso8601"` in a
/// schema), references as their paths, bytes as base64, geo points as `{"latitude", "longitude"}`, a double that
/// JSON cannot write as null; a document's subcollections sit beside its fields, and a document that does not
/// exist but has subcollections holds `".absent": true`, which the walker reads as no record.
public enum DocumentJSON {
    /// `{"path": "users/abc", "fields": {…}}` and a newline.
    public static func appendLine(_ document: FirestoreDocument, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"path":"#.utf8)
        appendString(document.path, to: &out)
        out.append(contentsOf: #","fields":"#.utf8)
        appendFields(document.fields, typed: true, to: &out)
        out.append(contentsOf: "}\n".utf8)
    }

    /// The documents as one JSON tree: collections hold documents by ID, documents hold their fields and their
    /// subcollections. Throws a message naming the document when one path is stored twice.
    public static func tree(_ documents: [FirestoreDocument]) throws(DuplicateDocument) -> [UInt8] {
        var fragments = DocumentFragments()
        for document in documents { fragments.add(document) }
        return try fragments.tree()
    }

    /// Two records of one document.
    public struct DuplicateDocument: Error {
        public var path: String
    }

    /// Whether path `a` sorts before `b`: segment by segment by their bytes, a document before its subcollections.
    static func precedes(_ a: [String], _ b: [String]) -> Bool {
        for (x, y) in zip(a, b) where x != y {
            return x.utf8.lexicographicallyPrecedes(y.utf8)
        }
        return a.count < b.count
    }

    static func appendFields(_ fields: [FirestoreField], typed: Bool, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        appendMembers(fields, typed: typed, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// The fields as an object's members, `"name":value` with commas between, without the braces.
    static func appendMembers(_ fields: [FirestoreField], typed: Bool, to out: inout [UInt8]) {
        for (i, field) in fields.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            appendString(field.name, to: &out)
            out.append(UInt8(ascii: ":"))
            append(field.value, typed: typed, to: &out)
        }
    }

    static func append(_ value: FirestoreValue, typed: Bool, to out: inout [UInt8]) {
        func wrapped(_ tag: String, _ body: (inout [UInt8]) -> Void) {
            if typed { out.append(contentsOf: "{\"\(tag)\":".utf8) }
            body(&out)
            if typed { out.append(UInt8(ascii: "}")) }
        }
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .boolean(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .integer(let n): out.append(contentsOf: String(n).utf8)
        case .double(let d): append(double: d, typed: typed, to: &out)
        case .timestamp(let micros): wrapped("__timestamp__") { appendRFC3339(micros, to: &$0) }
        case .string(let s): appendString(s, to: &out)
        case .bytes(let b):
            wrapped("__bytes__") { out in
                out.append(UInt8(ascii: "\""))
                b.withUnsafeBytes { appendBase64($0, to: &out) }
                out.append(UInt8(ascii: "\""))
            }
        case .reference(let path): wrapped("__ref__") { appendString(path, to: &$0) }
        case .geoPoint(let latitude, let longitude):
            append(latitude: latitude, longitude: longitude, typed: typed, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                append(element, typed: typed, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .map(let fields): appendFields(fields, typed: typed, to: &out)
        }
    }

    /// A double: its shortest form when finite; else, in a line, its name, and in the tree null.
    static func append(double d: Double, typed: Bool, to out: inout [UInt8]) {
        if d.isFinite {
            out.append(text: d.description)
        } else if typed {
            out.append(text: "{\"__double__\":\"\(d.isNaN ? "NaN" : d > 0 ? "Infinity" : "-Infinity")\"}")
        } else {
            out.append(literal: "null")
        }
    }

    /// A geo point: `{"__geo__": [lat, lng]}` in a line, `{"latitude", "longitude"}` in the tree.
    static func append(latitude: Double, longitude: Double, typed: Bool, to out: inout [UInt8]) {
        if typed {
            out.append(text: "{\"__geo__\":[\(latitude),\(longitude)]}")
        } else {
            out.append(text: "{\"latitude\":\(latitude),\"longitude\":\(longitude)}")
        }
    }

    static func appendString(_ string: String, to out: inout [UInt8]) {
        var string = string
        string.withUTF8 { JSONWriter.appendQuoted(UnsafeRawBufferPointer($0), to: &out) }
    }

    /// `2023-12-21T15:39:16.609Z`: the fraction to the millisecond, or the microsecond when it has one, as
    /// Firestore's REST API writes them.
    public static func rfc3339(_ microseconds: Int64) -> String {
        var out: [UInt8] = []
        appendRFC3339(microseconds, to: &out, quoted: false)
        return String(decoding: out, as: UTF8.self)
    }

    /// ``rfc3339(_:)`` as a JSON string (`quoted`), or without the quotes.
    static func appendRFC3339(_ microseconds: Int64, to out: inout [UInt8], quoted: Bool = true) {
        let (seconds, micros) = microseconds.quotientAndRemainder(dividingBy: 1_000_000)
        let second = micros < 0 ? seconds - 1 : seconds
        let fraction = micros < 0 ? micros + 1_000_000 : micros
        let (days, inDay) = second.quotientAndRemainder(dividingBy: 86_400)
        let day = inDay < 0 ? days - 1 : days
        let time = inDay < 0 ? inDay + 86_400 : inDay
        let civil = CivilDate.date(days: Int(day))
        func digits(_ n: Int64, _ count: Int) {
            var divisor: Int64 = 1
            for _ in 1..<count { divisor *= 10 }
            while divisor > 0 {
                out.append(UInt8(truncatingIfNeeded: n / divisor % 10) + 0x30)
                divisor /= 10
            }
        }
        if quoted { out.append(UInt8(ascii: "\"")) }
        if (0...9999).contains(civil.year) {
            digits(Int64(civil.year), 4)
        } else {
            // Years Firestore cannot store (it keeps 0001 to 9999), written as their digits.
            EntityJSON.appendDecimal(Int64(civil.year), to: &out)
        }
        for (separator, value) in [("-", Int64(civil.month)), ("-", Int64(civil.day)), ("T", time / 3600)] {
            out.append(UInt8(ascii: separator.unicodeScalars.first!))
            digits(value, 2)
        }
        for value in [time / 60 % 60, time % 60] {
            out.append(UInt8(ascii: ":"))
            digits(value, 2)
        }
        if fraction != 0 {
            out.append(UInt8(ascii: "."))
            if fraction % 1000 == 0 { digits(fraction / 1000, 3) } else { digits(fraction, 6) }
        }
        out.append(UInt8(ascii: "Z"))
        if quoted { out.append(UInt8(ascii: "\"")) }
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Standard base64, with padding.
    public static func base64(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        bytes.withUnsafeBytes { appendBase64($0, to: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// ``base64(_:)`` appended to `out`.
    static func appendBase64(_ bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        var i = 0
        while i + 3 <= bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            for shift in [18, 12, 6, 0] { out.append(alphabet[Int((n >> UInt32(shift)) & 63)]) }
            i += 3
        }
        let rest = bytes.count - i
        if rest > 0 {
            let n = UInt32(bytes[i]) << 16 | (rest == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            out.append(rest == 2 ? alphabet[Int(n >> 6 & 63)] : UInt8(ascii: "="))
            out.append(UInt8(ascii: "="))
        }
    }
}
