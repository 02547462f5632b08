import BinderyProtocol

/// One connection to a session: a WebSocket, an SSE stream, or an in-process test
/// client. Messages the session sends this client (patches from elsewhere, the answers
/// to this client's own events, `bye`) go to its sink.
///
/// A session has at most one WebSocket client (a resume takes over: the old one is
/// closed with 4001) and any number of others. Loop-confined.
public final class SessionClient {
    /// What kind of connection this is.
    public enum Kind: String, Sendable {
        /// A WebSocket (`/ws/<scene>`): exclusive, taken over by a resume.
        case webSocket
        /// A Server-Sent Events stream (`GET /api/sessions/<id>/events`): read-only.
        case eventStream
        /// An in-process client (tests, `BinderyTesting`).
        case inProcess
    }

    /// The kind of connection.
    public let kind: Kind
    /// The session it belongs to. Strong: the session lets go of its clients when they
    /// detach or it ends, which ends the cycle. (A weak reference would give every session
    /// a side table, and each retain and release of it on the event path the slow path.)
    public private(set) var session: Session?
    /// Where messages for this client go.
    let sink: (OutgoingMessage) -> Void
    /// Asked to close the connection (WebSocket close code and reason); the transport
    /// then calls ``disconnect()``.
    package var closeHandler: ((_ code: UInt16, _ reason: String) -> Void)?
    /// `false` after ``disconnect()``.
    public private(set) var isConnected = true

    init(kind: Kind, session: Session, sink: @escaping (OutgoingMessage) -> Void) {
        self.kind = kind
        self.session = session
        self.sink = sink
    }

    /// Handles a message this client sent (JSON text), and sends the answer (exactly
    /// one per event: a patch or an error carrying the event's `seq` as `ack`) to this
    /// client's sink. Messages for other clients go to theirs.
    ///
    /// A store-backed session answers once the store has the event (write before ack).
    public func receive(text: String) {
        guard isConnected, let session else { return }
        session.receive(text: text, from: self, reply: .client(self))
    }

    /// Handles a message this client sent, as ``receive(text:)`` does.
    public func receive(_ message: ClientMessage) {
        guard isConnected, let session else { return }
        session.durability.handle(message, of: session, from: self, reply: .client(self))
    }

    /// Reports a binary frame: answered with a `binary-not-supported` error.
    public func receiveBinary() {
        guard isConnected, let session else { return }
        send(session.binaryNotSupported())
    }

    /// Detaches from the session (the connection dropped). When it was the session's
    /// last connection, the grace period starts. Idempotent.
    public func disconnect() {
        guard isConnected else { return }
        isConnected = false
        session?.detach(self)
    }

    @inline(__always)
    package func send(_ message: ServerMessage) {
        send(OutgoingMessage(message))
    }

    // Inlined into the per-event path (the answer to each event comes through here);
    // the windowed `scene` stays out of line.
    @inline(__always)
    package func send(_ message: OutgoingMessage) {
        guard isConnected else { return }
        if rowWindow != nil { return sendWindowed(message) }
        sink(message)
    }

    /// Sends `message`, a `scene`'s large tables cut to ``rowWindow`` rows.
    @inline(never)
    private func sendWindowed(_ message: OutgoingMessage) {
        if let rowWindow, case .scene(let scene) = message.message {
            sink(OutgoingMessage(.scene(scene.windowingTables(to: rowWindow))))
        } else {
            sink(message)
        }
    }

    /// The rows of a large table this client gets in a `scene` (`?rows=N` on its
    /// WebSocket; PROTOCOL.md, "Large tables"); `nil`: every row.
    public var rowWindow: Int?

    /// Asks the transport to close (takeover 4001, end of session 1000).
    func close(code: UInt16, reason: String) {
        if let closeHandler {
            closeHandler(code, reason)
        }
        disconnect()
    }
}

/// A message on its way out, with its JSON encoded once however many clients get it.
public final class OutgoingMessage {
    /// The message.
    public let message: ServerMessage
    private var encoded: [UInt8]?

    /// Wraps `message`.
    public init(_ message: ServerMessage) {
        self.message = message
    }

    /// Wraps `message` whose JSON is already known.
    package init(_ message: ServerMessage, json: String) {
        self.message = message
        self.encoded = Array(json.utf8)
    }

    /// Wraps `message` whose UTF-8 JSON is already known (kept as is, not copied).
    package init(_ message: ServerMessage, utf8: [UInt8]) {
        self.message = message
        self.encoded = utf8
    }

    /// The message as UTF-8 JSON (encoded on first use): what a WebSocket frame carries.
    public var utf8: [UInt8] {
        if let encoded { return encoded }
        let bytes = MessageEncoder.encodeUTF8(message)
        encoded = bytes
        return bytes
    }

    /// The message as JSON text.
    public var json: String {
        String(decoding: utf8, as: UTF8.self)
    }
}
