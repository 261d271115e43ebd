/// A pull parser over one contiguous UTF-8 buffer.
///
/// The caller keeps the memory alive for the reader's lifetime (for example an `mmap`ed file). The reader validates
/// the full RFC 8259 grammar, including inside values consumed with `skipValue()`, and never recurses: open
/// containers are tracked in a bit stack, so nesting depth is limited only by memory.
///
/// Usage: read exactly one top-level value (`peekKind()`, `beginObject()`/`nextKey()`, `beginArray()`/
/// `nextElement()`, the `read*` methods, `skipValue()`), then call `finish()`.
///
/// Choices beyond RFC 8259:
/// - A UTF-8 byte order mark (EF BB BF) at offset 0 is skipped; anywhere else it is an error.
/// - Strings must be valid UTF-8 ("invalid UTF-8 in string" otherwise).
/// - A `\u` escape of a lone surrogate (`\uD800` not followed by a low-surrogate escape, or a lone `\uDC00`)
///   is accepted and decodes to U+FFFD; a valid escaped pair decodes to its scalar.
/// - Numbers of any size are accepted (`1e999` reads as infinity; `int64` is `nil` when the value does not fit).
///
/// After a method throws, the reader is in an unspecified (but memory-safe) state and should be discarded.
/// Calling the methods out of order (for example `nextKey()` inside an array) throws a `JSONSyntaxError` whose
/// message starts with "reader misuse".
public struct JSONReader {
    /// Where the reader is in the grammar.
    enum State: UInt8 {
        /// A value must come next (at the start, after a key, or after `nextElement()` returned true).
        case value
        /// A value was just completed: a separator or a closing bracket comes next (or the end, at depth 0).
        case afterValue
        /// Just after `{` or `[`: the first member/element or the closing bracket comes next.
        case containerStart
    }

    /// The input and the scanning routines.
    let input: ByteScanner
    var cursor: Int
    var state: State = .value
    var containers = BitStack()
    let scratch = ScratchBuffer()

    /// Creates a reader over `buffer`, which must stay valid and unchanged while the reader is used.
    /// A UTF-8 byte order mark at the start of the buffer is skipped.
    public init(_ buffer: UnsafeRawBufferPointer) {
        input = ByteScanner(buffer)
        let p = input.base
        if input.count >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF {
            cursor = 3
        } else {
            cursor = 0
        }
    }

    /// The byte offset of the cursor: just past the last consumed token (useful for progress reporting and for
    /// releasing pages that were already read).
    public var offset: Int { cursor }

    /// Builds an error at `offset` (clamped to the buffer), computing its line and column by scanning the buffer.
    /// Public so that adapters can report schema problems ("expected an object at posts/u1") with a position too.
    public func error(_ message: String, at offset: Int) -> JSONSyntaxError {
        input.error(message, at: offset)
    }

    /// A "reader misuse" error at the cursor.
    @inline(never)
    func misuse(_ message: String) -> JSONSyntaxError {
        input.error("reader misuse: " + message, at: cursor)
    }

    /// The misuse error for a value read while no value is expected.
    @inline(never)
    func noValueExpected() -> JSONSyntaxError {
        if containers.depth == 0 {
            return misuse("the top-level value was already read; call finish()")
        }
        if state == .containerStart || state == .afterValue {
            return misuse(
                containers.topIsObject
                    ? "call nextKey() before reading a member value"
                    : "call nextElement() before reading an element")
        }
        return misuse("no value expected here")
    }

    // MARK: - Values

    /// Checks that a value may be read now and returns the index of its first byte (whitespace skipped).
    @inline(__always)
    mutating func valueStart() throws(JSONSyntaxError) -> Int {
        guard state == .value else { throw noValueExpected() }
        let i = input.skipWhitespace(from: cursor)
        guard i < input.count else { throw input.endOfInput() }
        return i
    }

    /// Records that a value ended at `end`.
    @inline(__always)
    mutating func completeValue(at end: Int) {
        cursor = end
        state = .afterValue
    }

    /// Skips whitespace (and a UTF-8 BOM at offset 0 only), then returns the kind of the next value without
    /// consuming it. Throws at the end of input or on a byte that cannot start a value.
    public mutating func peekKind() throws(JSONSyntaxError) -> JSONValueKind {
        let i = try valueStart()
        cursor = i
        switch input.base[i] {
        case Byte.openBrace: return .object
        case Byte.openBracket: return .array
        case Byte.quote: return .string
        case Byte.minus, 0x30...0x39: return .number
        case Byte.lowerT, Byte.lowerF: return .bool
        case Byte.lowerN: return .null
        default: throw input.notAValue(at: i)
        }
    }

    // MARK: - Objects

    /// Consumes `{`. Then call `nextKey()` (or `nextKeyString()`) repeatedly until it returns nil.
    public mutating func beginObject() throws(JSONSyntaxError) {
        let i = try valueStart()
        guard input.base[i] == Byte.openBrace else { throw input.unexpected("expected an object", at: i) }
        containers.push(isObject: true)
        cursor = i &+ 1
        state = .containerStart
    }

    /// Consumes the separator (`,` when not the first member), then either `}` (returns nil: the object is
    /// finished) or a key string and `:`.
    ///
    /// The returned bytes are the key's unescaped UTF-8: they point into the input when the key has no escapes
    /// (zero copy) or into an internal scratch buffer otherwise, and are valid only until the next call on the
    /// reader. After a non-nil key, consume exactly one value before calling `nextKey()` again.
    public mutating func nextKey() throws(JSONSyntaxError) -> UnsafeRawBufferPointer? {
        guard let start = try nextKeyStart() else { return nil }
        let scan = try input.scanString(at: start)
        let key = stringBytes(from: start, scan: scan)
        try consumeColon(after: scan.end)
        return key
    }

    /// Same as `nextKey()` but returns the key as a `String` (nil when the object is finished).
    public mutating func nextKeyString() throws(JSONSyntaxError) -> String? {
        guard let bytes = try nextKey() else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Handles the separator or the closing brace before a key. Returns the index of the key's opening quote,
    /// or nil when the object was closed.
    @inline(__always)
    mutating func nextKeyStart() throws(JSONSyntaxError) -> Int? {
        guard containers.depth > 0, containers.topIsObject else {
            throw misuse("nextKey() called outside an object")
        }
        var i = input.skipWhitespace(from: cursor)
        guard i < input.count else { throw input.endOfInput() }
        var byte = input.base[i]
        switch state {
        case .containerStart:
            if byte == Byte.closeBrace {
                closeContainer(at: i)
                return nil
            }
        case .afterValue:
            if byte == Byte.comma {
                i = input.skipWhitespace(from: i &+ 1)
                guard i < input.count else { throw input.endOfInput() }
                byte = input.base[i]
            } else if byte == Byte.closeBrace {
                closeContainer(at: i)
                return nil
            } else {
                throw input.unexpected("expected ',' or '}' after object member", at: i)
            }
        case .value:
            throw misuse("nextKey() called before the previous member's value was consumed")
        }
        guard byte == Byte.quote else { throw input.unexpected("expected a string key", at: i) }
        return i
    }

    /// Expects optional whitespace and `:` at `index`, consumes them, and moves to the member value.
    @inline(__always)
    mutating func consumeColon(after index: Int) throws(JSONSyntaxError) {
        let i = input.skipWhitespace(from: index)
        guard i < input.count, input.base[i] == Byte.colon else {
            throw input.unexpected("expected ':' after object key", at: i)
        }
        cursor = i &+ 1
        state = .value
    }

    /// Consumes the closing bracket at `index` and completes the container as a value of its parent.
    @inline(__always)
    mutating func closeContainer(at index: Int) {
        containers.pop()
        completeValue(at: index &+ 1)
    }

    // MARK: - Arrays

    /// Consumes `[`. Then call `nextElement()` repeatedly: true means a value follows (consume it), false means
    /// `]` was consumed.
    public mutating func beginArray() throws(JSONSyntaxError) {
        let i = try valueStart()
        guard input.base[i] == Byte.openBracket else { throw input.unexpected("expected an array", at: i) }
        containers.push(isObject: false)
        cursor = i &+ 1
        state = .containerStart
    }

    /// Consumes the separator (`,` when not the first element) and returns true when an element follows
    /// (consume exactly one value next), or consumes `]` and returns false.
    public mutating func nextElement() throws(JSONSyntaxError) -> Bool {
        guard containers.depth > 0, !containers.topIsObject else {
            throw misuse("nextElement() called outside an array")
        }
        let i = input.skipWhitespace(from: cursor)
        guard i < input.count else { throw input.endOfInput() }
        let byte = input.base[i]
        switch state {
        case .containerStart:
            if byte == Byte.closeBracket {
                closeContainer(at: i)
                return false
            }
            cursor = i
            state = .value
            return true
        case .afterValue:
            if byte == Byte.comma {
                cursor = i &+ 1
                state = .value
                return true
            }
            if byte == Byte.closeBracket {
                closeContainer(at: i)
                return false
            }
            throw input.unexpected("expected ',' or ']' after array element", at: i)
        case .value:
            throw misuse("nextElement() called before the previous element was consumed")
        }
    }

    // MARK: - End

    /// Call after the top-level value: only whitespace may remain, else throws
    /// "trailing characters after the top-level value".
    public mutating func finish() throws(JSONSyntaxError) {
        let i = input.skipWhitespace(from: cursor)
        guard containers.depth == 0, state == .afterValue else {
            if i >= input.count { throw input.endOfInput() }
            throw misuse("finish() called before the top-level value was complete")
        }
        guard i == input.count else {
            throw input.error("trailing characters after the top-level value", at: i)
        }
        cursor = i
    }
}
