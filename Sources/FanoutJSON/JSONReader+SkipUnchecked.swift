import CScan

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension JSONReader {
    /// Consumes the next value without validating it, for a second pass over a document that an earlier pass
    /// has read whole without error (Fanout's search for the positions of findings, docs/reports.md).
    ///
    /// It only matches brackets outside strings, 64 bytes a step, so it is many times faster than ``skipValue()``;
    /// on a document that is not valid JSON it stops somewhere, never out of bounds, and the reader's later calls
    /// may fail or return nonsense.
    package mutating func skipValueUnchecked() throws(JSONSyntaxError) {
        guard state == .value else { throw noValueExpected() }
        let p = input.base
        let n = input.count
        var i = input.skipWhitespace(from: cursor)
        guard i < n else { throw input.endOfInput() }
        switch p[i] {
        case Byte.openBrace, Byte.openBracket:
            // Containers, where nearly all the bytes are, 64 bytes a step (`CScan`).
            i = fanout_skip_container(p, n, i)
        case Byte.quote:
            i = Self.endOfString(p, n, from: i &+ 1)
        default:
            // A number or literal: up to the next delimiter.
            while i < n, !Self.endsScalar(p[i]) { i &+= 1 }
        }
        completeValue(at: min(i, n))
    }

    /// The index just past the quote that closes the string whose contents start at `start`.
    @inline(__always)
    static func endOfString(_ p: UnsafePointer<UInt8>, _ n: Int, from start: Int) -> Int {
        var i = start
        while i < n, let hit = memchr(p + i, Int32(Byte.quote), n &- i) {
            let quote = UnsafeRawPointer(p).distance(to: hit)
            // Escaped when an odd number of backslashes precede it.
            var slashes = 0
            while quote &- slashes &- 1 >= start, p[quote &- slashes &- 1] == Byte.backslash { slashes &+= 1 }
            if slashes & 1 == 0 { return quote &+ 1 }
            i = quote &+ 1
        }
        return n
    }

    @inline(__always)
    static func endsScalar(_ byte: UInt8) -> Bool {
        byte == Byte.comma || byte == Byte.closeBrace || byte == Byte.closeBracket || Byte.isWhitespace(byte)
    }
}
