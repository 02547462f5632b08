import BinderyProtocol

/// Where an answer goes: a connection, or a handler (an HTTP request, a test).
package enum SessionReply {
    /// Sent to the client that sent the message (nothing for a nil answer).
    case client(SessionClient)
    /// Given to a handler, nil included (`bye` over HTTP answers nothing).
    case handler((ServerMessage?) -> Void)

    @inline(__always)
    package func callAsFunction(_ answer: ServerMessage?) {
        switch self {
        case .client(let client):
            if let answer { client.send(answer) }
        case .handler(let handler):
            handler(answer)
        }
    }
}

/// How a session makes its accepted events durable before it answers them: not at all
/// (``ImmediateDurability``, a session without a store), or as a layer above decides
/// (write before ack, with a session store). Every message a session receives goes
/// through its durability, so there is one event path. Loop-confined.
package protocol SessionDurability: AnyObject {
    /// Handles `message` from `client` (``Session/apply(_:from:)``) and gives the answer
    /// to `reply` once it may be sent.
    func handle(_ message: ClientMessage, of session: Session, from client: SessionClient?, reply: SessionReply)

    /// Gives `answer`, made without running anything (a message that did not decode), to
    /// `reply` in order with the answers before it.
    func answer(_ answer: ServerMessage, reply: SessionReply)

    /// Whether messages to the session's clients must queue behind answers still waiting.
    var isHolding: Bool { get }

    /// Queues `message` for `client` behind the answers still waiting.
    func hold(_ message: OutgoingMessage, for client: SessionClient)

    /// Whether a resumed `scene` says `"restored": false` (the state was rebuilt inexactly).
    var isRestoredInexactly: Bool { get }
}

/// A session without a store: every message is answered as soon as it has run. Stateless:
/// one instance serves every such session.
package final class ImmediateDurability: SessionDurability, Sendable {
    /// The instance every store-less session shares.
    package static let shared = ImmediateDurability()

    private init() {}

    @inline(__always)
    package func handle(_ message: ClientMessage, of session: Session, from client: SessionClient?, reply: SessionReply) {
        reply(session.apply(message, from: client))
    }

    package func answer(_ answer: ServerMessage, reply: SessionReply) {
        reply(answer)
    }

    package var isHolding: Bool { false }

    package func hold(_ message: OutgoingMessage, for client: SessionClient) {
        client.send(message)
    }

    package var isRestoredInexactly: Bool { false }
}
