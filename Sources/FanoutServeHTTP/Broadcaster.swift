import FanoutCore
import FanoutLocked

/// Sends server events (a reload, a keep-alive ping) to every open `/_fanout/events` stream. An `AsyncStream` has
/// one consumer, so each stream gets its own.
final class Broadcaster: Sendable {
    enum Event: Sendable { case reload, ping }

    private struct State {
        var next = 0
        var subscribers: [Int: AsyncStream<Event>.Continuation] = [:]
        var finished = false
    }

    private let state = Locked(State())

    /// The number of open streams.
    var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// A new stream of events; it ends when the client goes away (its `onTermination`) or the server stops.
    func subscribe() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(4))
        let id: Int? = state.withLock { state in
            if state.finished { return nil }
            state.next += 1
            state.subscribers[state.next] = continuation
            return state.next
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    func send(_ event: Event) {
        for continuation in state.withLock({ Array($0.subscribers.values) }) { continuation.yield(event) }
    }

    /// Ends every stream, and every later one at once: the server is stopping.
    func finishAll() {
        let subscribers = state.withLock { state in
            state.finished = true
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        for continuation in subscribers { continuation.finish() }
    }
}
