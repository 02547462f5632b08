import Bindery

extension Session {
    /// Handles `text` and returns the answer it gave at once (nil: none yet). For tests of
    /// sessions without a store, which answer at once; a store-backed session answers once
    /// the store has the event: use ``Session/handle(text:from:reply:)`` there.
    public func handle(text: String, from client: SessionClient? = nil) -> ServerMessage? {
        var answer: ServerMessage?
        handle(text: text, from: client) { answer = $0 }
        return answer
    }

    /// Handles `message` and returns the answer it gave at once; see ``handle(text:from:)``.
    public func handle(_ message: ClientMessage, from client: SessionClient? = nil) -> ServerMessage? {
        var answer: ServerMessage?
        handle(message, from: client) { answer = $0 }
        return answer
    }
}
