import Mustache

/// HTML escaping for template values, byte by byte.
package enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by `&amp;`, `&lt;`, `&gt;`, `&quot;` and `&#39;` (the entities
    /// swift-mustache uses), wherever they occur.
    ///
    /// swift-mustache's own escaping compares whole `Character`s, so a quote or `<` that a combining mark joins
    /// into one grapheme cluster (`"` followed by U+0301) passes through unescaped, and a username could close an
    /// attribute and add its own. Working on UTF-8 bytes closes that hole, and is also much faster: a site build
    /// escapes millions of values. Text without any of the five bytes is returned as is, without a copy.
    ///
    /// Characters HTML does not allow at all (controls, noncharacters) are spelled as `\u{…}` (see
    /// ``VisibleCharacters``); the same pass over the bytes tells whether there may be any. Their spelling holds
    /// none of the five bytes, so it does not change how much longer the text gets.
    package static func escape(_ text: String) -> String {
        var text = text
        var mayHoldForbidden = false
        let extra = text.withUTF8 { bytes in
            var extra = 0
            for byte in bytes {
                extra &+= Int(extraLength(byte))
                if VisibleCharacters.mayStartForbidden(byte) { mayHoldForbidden = true }
            }
            return extra
        }
        if mayHoldForbidden { text = VisibleCharacters.forDocuments(text) }
        return extra == 0 ? text : replacingMarkup(text, extra: extra)
    }

    /// Appends ``escape(_:)`` of `text` to `out`, copying the runs between markup bytes whole: what Fanout's
    /// template engine writes pages with, without a string per value.
    package static func append(escaping text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { append(escaping: UnsafeRawBufferPointer($0), to: &out) }
    }

    /// ``append(escaping:to:)`` of the string whose UTF-8 bytes are `bytes`.
    package static func append(escaping bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        let start = out.count
        var run = 0
        for i in bytes.indices {
            guard let entity = entity(bytes[i]) else {
                if VisibleCharacters.mayStartForbidden(bytes[i]) {
                    // Rare: a character that may need spelling out (``VisibleCharacters``); the whole value the
                    // slow way.
                    out.removeSubrange(start...)
                    out.append(contentsOf: escape(String(decoding: bytes, as: UTF8.self)).utf8)
                    return
                }
                continue
            }
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[run..<i]))
            entity.withUTF8Buffer { out.append(contentsOf: $0) }
            run = i + 1
        }
        out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[run...]))
    }

    /// `text` with the five bytes replaced by their entities, `extra` bytes longer.
    private static func replacingMarkup(_ text: String, extra: Int) -> String {
        var text = text
        return text.withUTF8 { bytes in
            String(unsafeUninitializedCapacity: bytes.count + extra) { out in
                var i = 0
                func put(_ entity: StaticString) {
                    entity.withUTF8Buffer { for b in $0 { out[i] = b; i += 1 } }
                }
                for byte in bytes {
                    if let entity = entity(byte) {
                        put(entity)
                    } else {
                        out[i] = byte
                        i += 1
                    }
                }
                return i
            }
        }
    }

    /// The entity that spells `byte` (one of the five markup bytes); nil for every other byte. The one table of
    /// the escaping: ``escape(_:)`` and ``append(escaping:to:)`` both read it.
    @inline(__always)
    private static func entity(_ byte: UInt8) -> StaticString? {
        switch byte {
        case UInt8(ascii: "&"): "&amp;"
        case UInt8(ascii: "<"): "&lt;"
        case UInt8(ascii: ">"): "&gt;"
        case UInt8(ascii: "\""): "&quot;"
        case UInt8(ascii: "'"): "&#39;"
        default: nil
        }
    }

    /// How many bytes longer `byte` gets when escaped.
    @inline(__always)
    private static func extraLength(_ byte: UInt8) -> UInt8 {
        entity(byte).map { UInt8($0.utf8CodeUnitCount - 1) } ?? 0
    }
}

/// The content type of every HTML template, in place of swift-mustache's own (see ``HTMLText/escape(_:)``).
///
/// It is registered under swift-mustache's name `HTML`, so a template that switches back with
/// `{{%CONTENT_TYPE:HTML}}` gets it too, and ``TemplateSet`` starts every template with that pragma: without it,
/// swift-mustache escapes with its built-in HTML type, which a registration cannot replace.
struct HTMLContentType: MustacheContentType {
    /// The pragma line ``TemplateSet`` puts before every template. On a line of its own it is a standalone tag,
    /// which Mustache removes with its line break, so the template's own lines render exactly as before.
    package static let pragmaLine = "{{%CONTENT_TYPE:HTML}}\n"

    private static let register: Void = MustacheContentTypes.register(HTMLContentType(), named: "HTML")

    package static func registerOnce() { _ = register }

    package func escapeText(_ text: String) -> String { HTMLText.escape(text) }
}
