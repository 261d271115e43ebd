import FanoutJSON

/// Runs `body` with a reader over the UTF-8 bytes of `text`.
func withReader<T>(_ text: String, _ body: (inout JSONReader) throws -> T) throws -> T {
    try withReader(Array(text.utf8), body)
}

/// Runs `body` with a reader over `bytes`.
func withReader<T>(_ bytes: [UInt8], _ body: (inout JSONReader) throws -> T) throws -> T {
    try bytes.withUnsafeBytes { buffer in
        var reader = JSONReader(buffer)
        return try body(&reader)
    }
}

/// The `JSONSyntaxError` thrown by `body`, or nil when it does not throw.
func syntaxError(_ body: () throws -> Void) -> JSONSyntaxError? {
    do {
        try body()
        return nil
    } catch let error as JSONSyntaxError {
        return error
    } catch {
        return JSONSyntaxError(message: "unexpected error type: \(error)", offset: -1, line: -1, column: -1)
    }
}

/// The error from parsing `bytes` with `JSONValue.parse`, or nil when it parses.
func parseError(_ bytes: [UInt8]) -> JSONSyntaxError? {
    syntaxError {
        _ = try bytes.withUnsafeBytes { buffer throws(JSONSyntaxError) in try JSONValue.parse(buffer) }
    }
}

/// The error from parsing `text` with `JSONValue.parse`, or nil when it parses.
func parseError(_ text: String) -> JSONSyntaxError? {
    parseError(Array(text.utf8))
}

/// The error from a `skipValue()` + `finish()` pass over `bytes`, or nil when it succeeds.
func skipError(_ bytes: [UInt8]) -> JSONSyntaxError? {
    syntaxError {
        try withReader(bytes) { reader in
            try reader.skipValue()
            try reader.finish()
        }
    }
}

/// The error from a `skipValue()` + `finish()` pass over `text`, or nil when it succeeds.
func skipError(_ text: String) -> JSONSyntaxError? {
    skipError(Array(text.utf8))
}

/// Parses `bytes` with `JSONValue.parse`.
func parse(_ bytes: [UInt8]) throws -> JSONValue {
    try bytes.withUnsafeBytes { buffer throws(JSONSyntaxError) in try JSONValue.parse(buffer) }
}

/// The String made of the UTF-8 bytes of a buffer returned by the reader.
func string(_ bytes: UnsafeRawBufferPointer?) -> String? {
    bytes.map { String(decoding: $0, as: UTF8.self) }
}
