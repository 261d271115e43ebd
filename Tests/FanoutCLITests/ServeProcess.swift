import FanoutTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A running `fanout serve`, started as a user would start it (the built binary, in a folder), and a plain HTTP/1.1
/// client over a socket that sends exactly the bytes a test gives: URLSession and browsers would tidy away the
/// hostile requests (`/../`) the server must refuse.
final class ServeProcess: @unchecked Sendable {  // after init, only `request` and `raw` are shared, which keep no state
    let process = Process()
    let url: String
    let port: Int
    private let stdout = Pipe()
    private let stderrBox = DataBox()

    /// Starts `fanout serve args… --port 0` in `cli`'s folder (or `subfolder` of it) and waits for the URL line.
    init(_ cli: CLI, _ args: [String], in subfolder: String? = nil) throws {
        process.executableURL = CLI.binary
        process.arguments = ["serve"] + args + ["--port", "0"]
        process.currentDirectoryURL = subfolder.map(cli.url) ?? cli.folder
        process.standardOutput = stdout
        let stderr = Pipe()
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let box = stderrBox
        Thread {
            box.data = stderr.fileHandleForReading.readDataToEndOfFile(); box.done.signal()
        }.start()
        // The first line of standard output is the URL; read it byte by byte, so nothing after it is consumed.
        var line = Data()
        let handle = stdout.fileHandleForReading
        while true {
            let byte = handle.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        url = String(decoding: line, as: UTF8.self)
        guard let port = URLComponents(string: url)?.port else {
            process.terminate()
            process.waitUntilExit()
            stderrBox.done.wait()
            throw CLIError(
                "no URL line from serve (got \"\(url)\"): \(String(decoding: stderrBox.data, as: UTF8.self))")
        }
        self.port = port
    }

    /// Stops the server with `signal` and returns its exit status, the rest of its standard output and its stderr.
    func stop(_ signal: Int32 = SIGINT) -> (
        status: Int32, reason: Process.TerminationReason, rest: String, stderr: String
    ) {
        process.stop(with: signal, within: 20)
        let rest = stdout.fileHandleForReading.readDataToEndOfFile()
        stderrBox.done.wait()
        return (
            process.terminationStatus, process.terminationReason, String(decoding: rest, as: UTF8.self),
            String(decoding: stderrBox.data, as: UTF8.self)
        )
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// An HTTP response as it came over the wire.
    struct Response {
        var status: Int
        var headers: [(String, String)]
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    }

    /// `GET target` (or another method), with `Connection: close`.
    func request(_ target: String, method: String = "GET", headers: [String] = []) throws -> Response {
        let head = ["\(method) \(target) HTTP/1.1", "Host: 127.0.0.1:\(port)", "Connection: close"] + headers
        return try raw(Data((head.joined(separator: "\r\n") + "\r\n\r\n").utf8))
    }

    /// Sends `bytes` and reads the answer until the server closes the connection.
    func raw(_ bytes: Data, readTimeout: Int = 30) throws -> Response {
        let socket = try connect()
        defer { close(socket) }
        _ = bytes.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var timeout = timeval(tv_sec: readTimeout, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var answer = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(socket, &buffer, buffer.count, 0)
            if n <= 0 { break }
            answer.append(contentsOf: buffer[0..<n])
        }
        return try Self.parse(answer)
    }

    /// Reads from `socket` until `marker` has arrived (since the last call), or `seconds` pass.
    static func read(_ socket: Int32, until marker: String, seconds: Int) -> Bool {
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let deadline = Date().addingTimeInterval(TimeInterval(seconds))
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            let n = recv(socket, &buffer, buffer.count, 0)
            if n > 0 { text += String(decoding: buffer[0..<n], as: UTF8.self) }
            if text.contains(marker) { return true }
            if n == 0 { return false }
        }
        return false
    }

    /// A connected socket to the server.
    func connect() throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw CLIError("cannot connect to port \(port): errno \(errno)")
        }
        return fd
    }

    static func parse(_ answer: Data) throws -> Response {
        guard let end = answer.range(of: Data("\r\n\r\n".utf8)) else {
            throw CLIError("no complete response head: \(String(decoding: answer.prefix(200), as: UTF8.self))")
        }
        let lines = String(decoding: answer[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw CLIError("bad status line \(lines[0])")
        }
        let headers = lines.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var body = Data(answer[end.upperBound...])
        if headers.contains(where: { $0.0.lowercased() == "transfer-encoding" && $0.1.lowercased() == "chunked" }) {
            body = dechunk(body)
        }
        return Response(status: status, headers: headers, body: body)
    }

    private static func dechunk(_ data: Data) -> Data {
        var out = Data()
        var rest = data[...]
        while let lineEnd = rest.range(of: Data("\r\n".utf8)),
            let size = Int(String(decoding: rest[..<lineEnd.lowerBound], as: UTF8.self), radix: 16), size > 0
        {
            let start = lineEnd.upperBound
            out.append(rest[start..<min(rest.endIndex, start + size)])
            rest = rest[min(rest.endIndex, start + size + 2)...]
        }
        return out
    }
}

extension Process {
    /// Sends `signal` and waits for the end; after `seconds`, records an issue and kills the process.
    func stop(with signal: Int32, within seconds: TimeInterval) {
        kill(processIdentifier, signal)
        let deadline = Date().addingTimeInterval(seconds)
        while isRunning && Date() < deadline { usleep(10_000) }
        if isRunning {
            Issue.record("still running \(Int(seconds)) s after signal \(signal)")
            kill(processIdentifier, SIGKILL)
        }
        waitUntilExit()
    }
}
