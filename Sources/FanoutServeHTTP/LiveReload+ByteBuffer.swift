import FanoutServe
import NIOCore

extension LiveReload {
    /// An HTML page's UTF-8 bytes with the script inserted, and the banner when `error` is given: copied once, into
    /// the buffer the response is sent from.
    static func inject(into page: [UInt8], error: String?) -> ByteBuffer {
        let insertions = insertions(in: page, error: error)
        var buffer = ByteBufferAllocator().buffer(
            capacity: page.count + insertions.reduce(0) { $0 + $1.text.utf8.count })
        splice(page, insertions, bytes: { buffer.writeBytes($0) }, text: { buffer.writeString($0) })
        return buffer
    }
}
