import BinderyProtocol
import Foundation
import RxCore
import RxWidgets

/// One user's session of a scene: an unguessable token, the scene instance it drives,
/// and the connections (``SessionClient``s) attached to it.
///
/// Created by ``SessionStore/createSession(scene:clientAddress:)`` (on a WebSocket
/// connect or `POST /api/sessions`). While no connection is attached, a grace timer runs
/// (``SessionStore/Configuration/gracePeriod``); a resume or any HTTP request for the
/// session stops or restarts it, and when it fires the session ends: its view controller
/// is released, so its `DisposeBag` disposes and `rx.deallocated` fires.
///
/// Every message it receives goes through its ``SessionDurability`` (with a store, the
/// answer waits for the write), so there is one event path. Driving it in-process:
///
/// ```swift
/// let session = try store.createSession(scene: "echo")
/// session.handle(.event(EventMessage(seq: 1, target: "input", event: "editingChanged",
///                                    value: .string("hi"))), from: nil) { answer in
///     // answer == .patch(PatchMessage(ack: 1, changes: [output.text = "HI"]))
/// }
/// ```
///
/// (`BinderyTesting` adds a synchronous `handle(text:)` for tests of store-less sessions.)
///
/// Loop-confined.
public final class Session {
    /// The session's token: 128 random bits, base64url. Its id in the HTTP API.
    public let id: String
    /// The scene's definition.
    public let scene: SceneDefinition
    /// The client's address when it was created (for per-address limits), if known.
    public let clientAddress: String?
    /// When the session was created (by the store's scheduler).
    public let createdAt: Date
    /// The parameters the scene was opened with (`/scene/repo?id=42` → `["id": "42"]`;
    /// its ``SceneContext/parameters``): a resume must ask for the same ones, and a
    /// session rebuilt elsewhere is opened with them again. Empty for a shared scene.
    public package(set) var sceneParameters: [String: String] = [:]

    /// The scene instance (replaced when a store-backed session is rebuilt).
    package var host: SceneHost?
    package weak var store: SessionStore?
    /// The attached connections, oldest first.
    public private(set) var clients: [SessionClient] = []
    /// Set once the session has ended.
    public private(set) var isEnded = false
    /// Why it ended (`"bye"`, `"deleted"`, `"expired"`, `"shutdown"`).
    public private(set) var endReason: String?

    var graceTimer: Disposable?
    package var rateLimiter: RateLimiter?
    /// How accepted events are made durable before they are answered
    /// (``SessionDurability``): not at all without a store.
    package var durability: SessionDurability = ImmediateDurability.shared

    package init(id: String, host: SceneHost, clientAddress: String?, createdAt: Date) {
        self.id = id
        self.scene = host.definition
        self.host = host
        self.clientAddress = clientAddress
        self.createdAt = createdAt
    }

    /// The scene's name.
    public var sceneName: String { scene.name }

    /// The first 6 characters of the token, for logs (never log whole tokens).
    public var shortID: String { String(id.prefix(6)) }

    /// The scene's view controller (nil once the session ended, or, for a shared scene,
    /// the shared controller).
    public var controller: ViewController? { host?.controller }

    /// The scene's widgets.
    public var tree: WidgetTree? { host?.tree }

    /// The context the scene was built with (scheduler, viewer count).
    public var context: SceneContext? { host?.context }

    /// The screens above a root navigation controller's root, as the URL's screen path
    /// names them (their restoration identifiers, up to the first without one).
    public var screenPath: [String] { (controller as? NavigationController)?.restorationPath ?? [] }

    /// The widget with `id`, if any.
    public func widget(withID id: String) -> View? {
        host?.tree.widget(withID: id)
    }

    /// Connections that count as viewers (every attached client).
    var viewerCount: Int { clients.count }

    // MARK: - Messages

    /// The full `scene` message for this session.
    public func sceneMessage(resumed: Bool, ack: Int? = nil) -> SceneMessage {
        guard let host else {
            return SceneMessage(session: id, scene: scene.name, title: scene.title, resumed: resumed, widgets: [], ack: ack)
        }
        var message = host.sceneMessage(session: self, resumed: resumed, ack: ack)
        if resumed, durability.isRestoredInexactly { message.restored = false }
        return message
    }

    /// Handles one client message given as JSON text and gives `reply` the answer for
    /// that client: a `patch` or `error` for an event (with `ack` = its `seq`), a `scene`
    /// for `resync`, nil for `bye` from a connection (`bye` without one); an `error`
    /// (`bad-json`, `bad-message`, `unknown-type`) for text that is not a valid message.
    /// Without a store the answer comes at once; with one, once the store has the event
    /// (write before ack), in the order the messages came.
    ///
    /// - Parameter client: the connection it came from (it is not echoed its own
    ///   value, and others get the changes); nil for a one-off HTTP request.
    public func handle(text: String, from client: SessionClient?, reply: @escaping (ServerMessage?) -> Void) {
        receive(text: text, from: client, reply: .handler(reply))
    }

    /// Handles one decoded client message; see ``handle(text:from:reply:)``.
    public func handle(_ message: ClientMessage, from client: SessionClient?, reply: @escaping (ServerMessage?) -> Void) {
        durability.handle(message, of: self, from: client, reply: .handler(reply))
    }

    /// The one way in for a message given as text: decoded, then through ``durability``.
    @inline(__always)
    func receive(text: String, from client: SessionClient?, reply: SessionReply) {
        switch MessageDecoder.decode(text) {
        case .success(let message):
            durability.handle(message, of: self, from: client, reply: reply)
        case .failure(let failure):
            store?.metrics.countError(failure.error.code)
            durability.answer(.error(ErrorMessage(ack: failure.seq, failure.error)), reply: reply)
        }
    }

    /// Runs one decoded client message now and returns its answer (nil: none, or it comes
    /// later through the scene's route). The durability decides when the answer goes out.
    package func apply(_ message: ClientMessage, from client: SessionClient?) -> ServerMessage? {
        if client == nil { store?.touch(self) }
        switch message {
        case .event(let event):
            return handle(event, from: client)
        case .resync(let seq):
            // A resync costs a whole scene: it spends the event budget too, or a client
            // could flood full scenes where events are rate-limited.
            if !allowByRate() {
                return .error(ErrorMessage(ack: seq, code: .rateLimited, message: "too many messages; slow down"))
            }
            return .scene(sceneMessage(resumed: true, ack: seq))
        case .rows(let request):
            // Rows cost like a resync's scene: they spend the event budget too.
            guard let host, !isEnded else {
                return .error(ErrorMessage(ack: request.seq, code: .unknownTarget, message: "the session has ended",
                                           target: request.target))
            }
            if !allowByRate() {
                return .error(ErrorMessage(ack: request.seq, code: .rateLimited, message: "too many messages; slow down"))
            }
            let answer = host.rows(request)
            if case .error(let error) = answer { store?.metrics.countError(error.code) }
            return answer
        case .bye:
            // Every client, the sender included, gets `bye` before its connection closes.
            if let store { store.end(self, reason: "bye") } else { finish(reason: "bye") }
            return client == nil ? .bye(reason: "bye") : nil
        case .upload(let upload):
            return handleUpload(upload, from: client)
        }
    }

    private func handle(_ event: EventMessage, from client: SessionClient?) -> ServerMessage? {
        guard let host, !isEnded else {
            return .error(ErrorMessage(ack: event.seq, code: .unknownTarget, message: "the session has ended",
                                       target: event.target))
        }
        let metrics = host.metrics
        metrics.events += 1
        if !allowByRate() {
            return .error(ErrorMessage(ack: event.seq, code: .rateLimited,
                                       message: "too many events; slow down", target: event.target))
        }
        // nil: a scene shared across processes answers later, through its owner.
        guard let answer = host.handle(event, session: self, client: client) else { return nil }
        if case .error(let error) = answer { metrics.countError(error.code) }
        return answer
    }

    /// Takes one token from the rate limiter (if any); false (counted) when none is left.
    private func allowByRate() -> Bool {
        guard var limiter = rateLimiter, let host else { return true }
        let allowed = limiter.allow(now: host.context.now)
        rateLimiter = limiter
        if !allowed { store?.metrics.countError(.rateLimited) }
        return allowed
    }

    /// The answer to a binary frame.
    func binaryNotSupported() -> ServerMessage {
        store?.metrics.countError(.binaryNotSupported)
        return .error(ErrorMessage(code: .binaryNotSupported, message: "binary frames are not supported; send JSON text"))
    }

    /// Sends any changes recorded but not yet sent (timers, async work) now, instead
    /// of at the end of the loop turn.
    public func flush() {
        host?.flush()
    }

    // MARK: - Clients

    /// Attaches an in-process client whose messages go to `sink` (tests). See
    /// ``SessionClient``.
    public func connect(_ sink: @escaping (ServerMessage) -> Void) -> SessionClient {
        attach(kind: .inProcess) { sink($0.message) }
    }

    /// Attaches a connection; a new WebSocket takes over an open one (closed with 4001).
    package func attach(kind: SessionClient.Kind, sink: @escaping (OutgoingMessage) -> Void) -> SessionClient {
        if kind == .webSocket {
            for old in clients where old.kind == .webSocket {
                store?.log("session \(shortID): connection taken over by a resume")
                old.close(code: 4001, reason: "session taken over")
            }
        }
        let client = SessionClient(kind: kind, session: self, sink: sink)
        clients.append(client)
        store?.clientAttached(self)
        if let host {
            host.updateViewerCount()
            // The others hear of it (a viewer count, say) now; the newcomer gets it in
            // the scene it is about to be sent, not again in a patch after it.
            if host.tree.hasPendingChanges { host.flush(except: client) }
        }
        return client
    }

    /// Called by a client that disconnected.
    package func detach(_ client: SessionClient) {
        let before = clients.count
        clients.removeAll { $0 === client }
        guard clients.count != before else { return }
        uploadsLost(client)
        host?.updateViewerCount()
        store?.clientDetached(self)
    }

    /// Whether a client other than `client` is attached.
    func hasClient(otherThan client: SessionClient?) -> Bool {
        clients.contains { $0 !== client }
    }

    /// Sends `message` to every client but `except` (behind answers waiting for the store).
    package func broadcast(_ message: OutgoingMessage, except: SessionClient?) {
        broadcast(message) { $0 !== except }
    }

    /// Sends `message` to every client for which `include` is true (behind answers
    /// waiting for the store, as ``broadcast(_:except:)`` does).
    @inline(__always)
    package func broadcast(_ message: OutgoingMessage, where include: (SessionClient) -> Bool) {
        if durability.isHolding {
            for client in clients where include(client) { durability.hold(message, for: client) }
            return
        }
        for client in clients where include(client) {
            client.send(message)
        }
    }

    /// The close reason (code 4001) of a session that another process took over.
    package static let movedReason = "session moved"

    /// Sends `message` to `client` behind the answers waiting for the store.
    package func send(_ message: OutgoingMessage, to client: SessionClient) {
        if durability.isHolding {
            durability.hold(message, for: client)
        } else {
            client.send(message)
        }
    }

    /// Ends the session: says `bye` to the clients, closes them, releases the scene.
    /// A session that moved to another process (``Session/movedReason``) says no `bye`
    /// (the session lives on there) and closes its WebSockets with 4001.
    func finish(reason: String) {
        guard !isEnded else { return }
        isEnded = true
        endReason = reason
        graceTimer?.dispose()
        graceTimer = nil
        uploadsEnded()
        let bye = OutgoingMessage(.bye(reason: reason))
        for client in clients {
            if reason == Self.movedReason {
                client.close(code: 4001, reason: Self.movedReason)
                continue
            }
            client.send(bye)
            client.close(code: reason == "shutdown" ? 1001 : 1000, reason: reason)
        }
        clients = []
        if let host {
            host.detach(self)
            if host.definition.sharing == .perConnection { host.dispose() }
        }
        host = nil
    }
}

/// A token bucket: `rate` events per second, bursts of up to `burst`.
package struct RateLimiter {
    let rate: Double
    let burst: Double
    var tokens: Double
    var last: Date?

    package init(rate: Double, burst: Double) {
        self.rate = rate
        self.burst = burst
        self.tokens = burst
    }

    mutating func allow(now: Date) -> Bool {
        if let last {
            tokens = min(burst, tokens + max(0, now.timeIntervalSince(last)) * rate)
        }
        last = now
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
