extension JSONReader {
    /// Consumes the next value whatever it is (objects and arrays of any depth), validating it completely.
    /// Iterative: deep nesting costs one bit of memory per level, never stack.
    public mutating func skipValue() throws(JSONSyntaxError) {
        guard state == .value else { throw noValueExpected() }
        let p = base
        let n = count
        let baseDepth = containers.depth
        var i = cursor

        nextValue: while true {
            // A value is expected at `i` (after optional whitespace).
            i = skipWhitespace(from: i)
            guard i < n else { throw endOfInput() }
            switch p[i] {
            case Byte.quote:
                i = try scanString(at: i).end
            case Byte.openBrace:
                i = skipWhitespace(from: i &+ 1)
                guard i < n else { throw endOfInput() }
                if p[i] == Byte.closeBrace {
                    i &+= 1
                } else {
                    containers.push(isObject: true)
                    i = try skipKeyAndColon(at: i)
                    continue nextValue
                }
            case Byte.openBracket:
                i = skipWhitespace(from: i &+ 1)
                guard i < n else { throw endOfInput() }
                if p[i] == Byte.closeBracket {
                    i &+= 1
                } else {
                    containers.push(isObject: false)
                    continue nextValue
                }
            case Byte.minus, 0x30...0x39:
                i = try scanNumber(at: i)
            case Byte.lowerT, Byte.lowerF, Byte.lowerN:
                i = try scanLiteral(at: i)
            default:
                throw notAValue(at: i)
            }

            // A value just ended at `i`: close containers until one continues with ','.
            while containers.depth > baseDepth {
                i = skipWhitespace(from: i)
                guard i < n else { throw endOfInput() }
                let byte = p[i]
                if containers.topIsObject {
                    if byte == Byte.comma {
                        i = try skipKeyAndColon(at: skipWhitespace(from: i &+ 1))
                        continue nextValue
                    }
                    if byte == Byte.closeBrace {
                        i &+= 1
                        containers.pop()
                        continue
                    }
                    throw unexpected("expected ',' or '}' after object member", at: i)
                } else {
                    if byte == Byte.comma {
                        i &+= 1
                        continue nextValue
                    }
                    if byte == Byte.closeBracket {
                        i &+= 1
                        containers.pop()
                        continue
                    }
                    throw unexpected("expected ',' or ']' after array element", at: i)
                }
            }
            break
        }
        completeValue(at: i)
    }

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
