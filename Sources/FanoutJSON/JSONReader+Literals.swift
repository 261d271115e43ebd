extension JSONReader {
    /// Reads the next value as `true` or `false`. Throws "expected a bool" for another kind of value.
    public mutating func readBool() throws(JSONSyntaxError) -> Bool {
        let start = try valueStart()
        let scanner = input
        let first = scanner.base[start]
        guard first == Byte.lowerT || first == Byte.lowerF else {
            throw scanner.unexpected("expected a bool", at: start)
        }
        let end = try scanner.scanLiteral(at: start)
        completeValue(at: end)
        return first == Byte.lowerT
    }

    /// Reads the next value as `null`. Throws "expected null" for another kind of value.
    public mutating func readNull() throws(JSONSyntaxError) {
        let start = try valueStart()
        let scanner = input
        guard scanner.base[start] == Byte.lowerN else { throw scanner.unexpected("expected null", at: start) }
        let end = try scanner.scanLiteral(at: start)
        completeValue(at: end)
    }
}

extension ByteScanner {
    /// Validates the literal `true`, `false` or `null` whose first byte (`t`, `f` or `n`) is at `start`;
    /// returns the index just past it.
    @inline(__always)
    func scanLiteral(at start: Int) throws(JSONSyntaxError) -> Int {
        let p = base
        let n = count
        switch p[start] {
        case Byte.lowerT:
            if start &+ 4 <= n && p[start &+ 1] == 0x72 && p[start &+ 2] == 0x75 && p[start &+ 3] == 0x65 {
                return start &+ 4
            }
        case Byte.lowerF:
            if start &+ 5 <= n && p[start &+ 1] == 0x61 && p[start &+ 2] == 0x6C && p[start &+ 3] == 0x73
                && p[start &+ 4] == 0x65
            {
                return start &+ 5
            }
        case Byte.lowerN:
            if start &+ 4 <= n && p[start &+ 1] == 0x75 && p[start &+ 2] == 0x6C && p[start &+ 3] == 0x6C {
                return start &+ 4
            }
        default:
            break
        }
        throw literalError(at: start)
    }

    /// The error for a misspelled or truncated literal starting at `start`.
    @inline(never)
    func literalError(at start: Int) -> JSONSyntaxError {
        let word: String
        switch base[start] {
        case Byte.lowerT: word = "true"
        case Byte.lowerF: word = "false"
        default: word = "null"
        }
        var i = start
        for expected in word.utf8 {
            guard i < count else { return endOfInput() }
            if base[i] != expected { break }
            i &+= 1
        }
        return error("invalid literal (expected '\(word)')", at: start)
    }
}
