/// The input buffer and the low-level scanning routines of `JSONReader`.
///
/// A small trivial struct (three words, no reference-counted fields) so that the hot loops can keep it in
/// registers; every routine works on `UnsafePointer<UInt8>` with manual index arithmetic and checks `count`
/// before each read, so reading past the end is impossible.
struct ByteScanner {
    /// The first byte of the input (a valid 8-byte dummy when the input is empty).
    let base: UnsafePointer<UInt8>
    /// The number of input bytes.
    let count: Int
    /// `byteTables`: the string-scan stop table, then the hex digit table.
    let table: UnsafePointer<UInt8>

    init(_ buffer: UnsafeRawBufferPointer) {
        if let start = buffer.baseAddress, buffer.count > 0 {
            base = start.assumingMemoryBound(to: UInt8.self)
            count = buffer.count
        } else {
            base = emptyInput
            count = 0
        }
        table = byteTables
    }

    /// The index of the first non-whitespace byte at or after `index` (or `count`).
    @inline(__always)
    func skipWhitespace(from index: Int) -> Int {
        var i = index
        let p = base
        let n = count
        while i < n {
            let byte = p[i]
            guard Byte.isWhitespace(byte) else { return i }
            i &+= 1
            if byte == Byte.newline {
                // Pretty-printed input: skip indentation eight spaces at a time.
                while i &+ 8 <= n && UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self) == SWAR.spaces {
                    i &+= 8
                }
            }
        }
        return i
    }

    // MARK: - Errors (cold)

    /// An error at `offset` with its line and column.
    @inline(never)
    func error(_ message: String, at offset: Int) -> JSONSyntaxError {
        JSONSyntaxError.locate(message, at: offset, in: base, count: count)
    }

    /// "unexpected end of input" at the end of the buffer.
    @inline(never)
    func endOfInput() -> JSONSyntaxError {
        error("unexpected end of input", at: count)
    }

    /// The error `expectation` (e.g. "expected ':' after object key") at `index`, or "unexpected end of input"
    /// when `index` is the end of the buffer.
    @inline(never)
    func unexpected(_ expectation: String, at index: Int) -> JSONSyntaxError {
        guard index < count else { return endOfInput() }
        return error(expectation, at: index)
    }

    /// "expected a value, found 'x'" at `index` (or "unexpected end of input").
    @inline(never)
    func notAValue(at index: Int) -> JSONSyntaxError {
        guard index < count else { return endOfInput() }
        return error("expected a value, found \(JSONSyntaxError.describe(byte: base[index]))", at: index)
    }
}
