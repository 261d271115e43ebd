#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A line and column in a text file, both 1-based: only LF starts a line (as in the reader's syntax errors), and
/// columns count Unicode scalars, as editors count characters, so that `export.json:12:7` opens at the key even
/// after non-ASCII text on the line.
package struct TextPosition: Sendable, Hashable {
    /// The 1-based line.
    package var line: Int
    /// The 1-based column, in Unicode scalars.
    package var column: Int

    /// A position.
    package init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The line and column of each byte offset of `offsets` in the UTF-8 text `buffer`, found in one sweep from
    /// the start to the last offset: newlines are found with `memchr`, and a column is counted on from the
    /// previous offset when it is on the same line, so that a minified export (one long line) costs one pass too.
    /// A UTF-8 byte order mark at the start is not part of the first line.
    package static func positions(of offsets: [Int], in buffer: UnsafeRawBufferPointer) -> [Int: TextPosition] {
        var result: [Int: TextPosition] = [:]
        guard let base = buffer.baseAddress else {
            for offset in offsets { result[offset] = TextPosition(line: 1, column: 1) }
            return result
        }
        let bom = buffer.count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF ? 3 : 0
        var line = 1
        var lineStart = bom
        // The column of `counted`, a byte offset on the current line.
        var counted = bom
        var column = 1
        var scanned = 0  // newlines are counted up to here
        for offset in Set(offsets).sorted() {
            let target = min(max(offset, bom), buffer.count)
            while scanned < target, let hit = memchr(base + scanned, 0x0A, target - scanned) {
                let index = base.distance(to: hit)
                line += 1
                lineStart = index + 1
                scanned = index + 1
            }
            scanned = max(scanned, target)
            if counted < lineStart {
                counted = lineStart
                column = 1
            }
            column += scalars(base.assumingMemoryBound(to: UInt8.self) + counted, target - counted)
            counted = target
            result[offset] = TextPosition(line: line, column: column)
        }
        return result
    }

    /// The Unicode scalars in `count` bytes of UTF-8 at `bytes`: every byte that does not continue a sequence
    /// (`10xxxxxx`) starts one. Eight bytes at a time, since a minified export is one line and this runs over
    /// most of the file.
    private static func scalars(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
        let high: UInt64 = 0x8080_8080_8080_8080
        var continuations = 0
        var i = 0
        while i &+ 8 <= count {
            let word = UnsafeRawPointer(bytes + i).loadUnaligned(as: UInt64.self)
            // Bit 7 set and bit 6 clear, in each byte.
            continuations &+= (word & ~(word << 1) & high).nonzeroBitCount
            i &+= 8
        }
        while i < count {
            if bytes[i] & 0xC0 == 0x80 { continuations &+= 1 }
            i &+= 1
        }
        return count &- continuations
    }

    /// The first offset at or after `offset` that is not JSON whitespace (nor a `,`, when `commas`): where the
    /// reader's next key or value starts.
    static func skipping(whitespaceIn buffer: UnsafeRawBufferPointer, from offset: Int, commas: Bool = false) -> Int {
        var i = offset
        while i < buffer.count {
            switch buffer[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            case UInt8(ascii: ",") where commas: i += 1
            default: return i
            }
        }
        return i
    }
}
