extension JSONReader {
    /// Consumes the next value whatever it is (objects and arrays of any depth), validating it completely.
    /// Iterative: deep nesting costs one bit of memory per level, never stack.
    public mutating func skipValue() throws(JSONSyntaxError) {
        guard state == .value else { throw noValueExpected() }
        let scanner = input
        let p = scanner.base
        let n = scanner.count
        var i = cursor
        // Containers opened by this call: the first 64 levels live in a register (bit set = object), deeper
        // levels spill to the reader's bit stack.
        var depth = 0
        var kinds: UInt64 = 0
        var inObject = false

        nextValue: while true {
            // A value is expected at `i` (after optional whitespace).
            i = scanner.skipWhitespace(from: i)
            guard i < n else { throw scanner.endOfInput() }
            switch p[i] {
            case Byte.quote:
                i = try scanner.scanString(at: i).end
            case Byte.openBrace:
                i = scanner.skipWhitespace(from: i &+ 1)
                guard i < n else { throw scanner.endOfInput() }
                if p[i] == Byte.closeBrace {
                    i &+= 1
                } else {
                    if depth < 64 {
                        kinds |= 1 << UInt64(depth)
                    } else {
                        containers.push(isObject: true)
                    }
                    depth &+= 1
                    inObject = true
                    i = try scanner.skipKeyAndColon(at: i)
                    continue nextValue
                }
            case Byte.openBracket:
                i = scanner.skipWhitespace(from: i &+ 1)
                guard i < n else { throw scanner.endOfInput() }
                if p[i] == Byte.closeBracket {
                    i &+= 1
                } else {
                    if depth < 64 {
                        kinds &= ~(1 << UInt64(depth))
                    } else {
                        containers.push(isObject: false)
                    }
                    depth &+= 1
                    inObject = false
                    continue nextValue
                }
            case Byte.minus, 0x30...0x39:
                i = try scanner.scanNumber(at: i)
            case Byte.lowerT, Byte.lowerF, Byte.lowerN:
                i = try scanner.scanLiteral(at: i)
            default:
                throw scanner.notAValue(at: i)
            }

            // A value just ended at `i`: close containers until one continues with ','.
            while depth > 0 {
                i = scanner.skipWhitespace(from: i)
                guard i < n else { throw scanner.endOfInput() }
                let byte = p[i]
                if byte == Byte.comma {
                    if inObject {
                        i = try scanner.skipKeyAndColon(at: scanner.skipWhitespace(from: i &+ 1))
                    } else {
                        i &+= 1
                    }
                    continue nextValue
                }
                guard byte == (inObject ? Byte.closeBrace : Byte.closeBracket) else {
                    throw scanner.error(
                        inObject
                            ? "expected ',' or '}' after object member" : "expected ',' or ']' after array element",
                        at: i)
                }
                i &+= 1
                // Pop, and find the kind of the container that is now innermost.
                depth &-= 1
                if depth >= 64 {
                    containers.pop()
                }
                if depth == 0 {
                    break
                } else if depth <= 64 {
                    inObject = (kinds >> UInt64(depth &- 1)) & 1 != 0
                } else {
                    inObject = containers.topIsObject
                }
            }
            break
        }
        completeValue(at: i)
    }
}

extension ByteScanner {
    /// Expects a key string at `index` (whitespace already skipped), then optional whitespace and `:`;
    /// returns the index just past the colon.
    @inline(__always)
    func skipKeyAndColon(at index: Int) throws(JSONSyntaxError) -> Int {
        guard index < count, base[index] == Byte.quote else {
            throw unexpected("expected a string key", at: index)
        }
        let i = skipWhitespace(from: try scanString(at: index).end)
        guard i < count, base[i] == Byte.colon else {
            throw unexpected("expected ':' after object key", at: i)
        }
        return i &+ 1
    }
}
