import BinderyCluster
import BinderyProtocol
import BinderyRuntime
import EventLoop
import HTTPServer
import Logging

/// `GET /ws/<scene>[?session=<token>]`: the WebSocket a browser (or websocat) drives a
/// scene through.
///
/// Checks, in order: the scene exists (else 404), the origin is allowed (else 403), the
/// handshake is valid (else 400/426...), fewer than `maxSockets` WebSockets are open
/// (else 503), a session can be had (a resume, or a new one
/// within the limits: else 429/503). Then 101, the `scene` message, and from then on
/// each text message is a client message (answered per PROTOCOL.md); a binary message
/// is answered with `binary-not-supported`. Closing the socket starts the session's
/// grace period.
///
/// **Backpressure.** When the socket's outgoing buffer passes its high-water mark, the
/// patches no client event asked for are dropped (answers still go out); once it drains,
/// the client gets a fresh `scene` (`"resumed": true`) instead of what was dropped.
final class WebSocketEndpoint {
    private let store: SessionStore
    private let origins: OriginPolicy
    private let configuration: WebSocketConfiguration
    private let maxSockets: Int
    private let logger: Logger
    private let eventLatency: LatencyHistogram
    /// Every open Bindery WebSocket.
    let group = WebSocketGroup()

    init(store: SessionStore, origins: OriginPolicy, configuration: WebSocketConfiguration, maxSockets: Int,
         logger: Logger, eventLatency: LatencyHistogram = LatencyHistogram()) {
        self.store = store
        self.eventLatency = eventLatency
        self.maxSockets = maxSockets
        self.origins = origins
        var configuration = configuration
        configuration.originPolicy = .any  // checked here, with Bindery's rules
        self.configuration = configuration
        self.logger = logger
    }

    func register(on router: Router) {
        router.upgrade("/ws/:scene") { [self] request, upgrade in handle(request, upgrade) }
    }

    private func handle(_ request: HTTPRequest, _ upgrade: HTTPUpgrade) {
        let sceneName = request.parameters["scene"] ?? ""
        guard store.registry.scene(named: sceneName) != nil else {
            upgrade.reject(SessionAPI.errorResponse(404, code: "unknown-scene", message: "no scene named '\(sceneName)'"))
            return
        }
        guard origins.allows(origin: request.headers["Origin"], host: request.headers["Host"]) else {
            logger.warning("origin not allowed", metadata: ["origin": "\(request.headers["Origin"] ?? "-")", "path": "\(request.path)"])
            upgrade.reject(SessionAPI.errorResponse(403, code: "origin-not-allowed",
                                                    message: "origin \(request.headers["Origin"] ?? "") is not allowed"))
            return
        }
        let accept: String
        do throws(WebSocketHandshake.Failure) {
            accept = try WebSocketHandshake.accept(method: request.method, version: request.version.description,
                                                   headers: { request.headers.values(for: $0) }, originPolicy: .any)
        } catch {
            var headers = HTTPHeaders()
            for field in error.headers { headers.add(name: field.name, value: field.value) }
            upgrade.reject(.error(error.status, error.description, headers: headers))
            return
        }
        guard !group.isClosing else {
            upgrade.reject(.error(503, "shutting down"))
            return
        }
        // Checked before a session is made, so a refused upgrade costs no session.
        guard group.count < maxSockets else {
            logger.warning("too many WebSockets", metadata: ["open": "\(group.count)", "path": "\(request.path)"])
            store.metrics.webSocketsRefused += 1
            upgrade.reject(SessionAPI.errorResponse(503, code: "too-many-connections",
                                                    message: "the server has too many open WebSockets; try again later"))
            return
        }
        let address = request.remoteAddress?.host
        let token = request.queryValue("session")
        let parameters = SceneContext.parameters(fromQuery: request.queryItems)
        let screenPath = SceneContext.screenPath(from: request.queryValue("screen"))
        let finish = { [self] (result: Result<(session: Session, resumed: Bool), SessionError>) in
            switch result {
            case .success(let (session, resumed)):
                guard !upgrade.isClosed else { return }
                // A shared scene's mirror first catches up with what this client may
                // already have had acknowledged (its route's whenCurrent).
                guard let route = session.host?.route else {
                    return acceptUpgrade(upgrade, request: request, accept: accept, session: session, resumed: resumed, address: address)
                }
                route.whenCurrent { [self] isCurrent in
                    guard !upgrade.isClosed else { return }
                    guard isCurrent else {
                        // Never a scene older than what the client may have had acknowledged.
                        // A session made for this upgrade goes; a resumed one waits for the retry.
                        if !resumed { store.end(session, reason: "not served") }
                        return upgrade.reject(SessionAPI.errorResponse(503, code: "store-unavailable",
                                                                       message: "the shared scene is catching up; try again"))
                    }
                    guard !session.isEnded else {
                        return upgrade.reject(SessionAPI.errorResponse(503, code: "store-unavailable",
                                                                       message: "the session ended meanwhile; try again"))
                    }
                    acceptUpgrade(upgrade, request: request, accept: accept, session: session, resumed: resumed, address: address)
                }
            case .failure(.badParameter(let message)):
                refuseParameters(message, request: request, upgrade: upgrade, accept: accept)
            case .failure(let error):
                refuse(upgrade, scene: sceneName, error)
            }
        }
        guard store.persistence != nil else {
            do throws(SessionError) {
                finish(.success(try store.resumeOrCreate(scene: sceneName, token: token, parameters: parameters,
                                                         screenPath: screenPath, clientAddress: address)))
            } catch {
                finish(.failure(error))
            }
            return
        }
        // With a store, a token not held here is taken over (asynchronously).
        store.resumeOrCreate(scene: sceneName, token: token, parameters: parameters, screenPath: screenPath,
                             clientAddress: address, completion: finish)
    }

    private func refuse(_ upgrade: HTTPUpgrade, scene sceneName: String, _ error: SessionError) {
        logger.warning("session refused", metadata: ["scene": "\(sceneName)", "status": "\(error.httpStatus)", "reason": "\(error)"])
        upgrade.reject(SessionAPI.errorResponse(error.httpStatus, code: error.code, message: error.description))
    }

    private func acceptUpgrade(_ upgrade: HTTPUpgrade, request: HTTPRequest, accept: String, session: Session, resumed: Bool,
                               address: String?) {
        var headers = HTTPHeaders()
        for field in WebSocketHandshake.responseHeaders(accept: accept) {
            headers.add(name: field.name, value: field.value)
        }
        // Lets a proxy learn which server holds the token (docs/Cluster.md).
        headers.add(name: SessionAPI.sessionHeader, value: session.id)
        upgrade.accept(response: HTTPResponse(status: 101, headers: headers)) { [self] tcp, rest in
            let socket = WebSocketConnection(connection: tcp, configuration: configuration)
            group.add(socket)
            store.metrics.webSocketsAccepted += 1
            // `?rows=N`: large tables come windowed (PROTOCOL.md, "Large tables").
            let rowWindow = request.queryValue("rows").flatMap(Int.init).map { min(max($0, 1), SceneMessage.maximumRowWindow) }
            connect(socket, to: session, resumed: resumed, address: address, rowWindow: rowWindow)
            socket.start(initialBytes: rest)
        }
    }

    /// Bad scene parameters are the page's address, not the network: a browser cannot read
    /// a refused upgrade's body, so the socket opens, says why (`bad-parameter`) and
    /// closes with 4400, and the client shows it instead of retrying.
    private func refuseParameters(_ message: String, request: HTTPRequest, upgrade: HTTPUpgrade, accept: String) {
        logger.info("bad scene parameters", metadata: ["path": "\(request.path)", "reason": "\(message)"])
        store.metrics.countError(.badParameter)
        var headers = HTTPHeaders()
        for field in WebSocketHandshake.responseHeaders(accept: accept) { headers.add(name: field.name, value: field.value) }
        upgrade.accept(response: HTTPResponse(status: 101, headers: headers)) { [configuration] tcp, rest in
            let socket = WebSocketConnection(connection: tcp, configuration: configuration)
            socket.start(initialBytes: rest)
            _ = socket.send(utf8Text: Array(MessageEncoder.encode(.error(ErrorMessage(code: .badParameter, message: message))).utf8))
            socket.close(code: WebSocketCloseCode(4400), reason: "bad-parameter")
        }
    }

    private func connect(_ socket: WebSocketConnection, to session: Session, resumed: Bool, address: String?,
                         rowWindow: Int?) {
        let binding = SocketBinding(socket: socket, session: session, metrics: store.metrics, logger: logger,
                                    eventLatency: eventLatency)
        let client = session.attach(kind: .webSocket, sink: binding.send)
        binding.client = client
        client.rowWindow = rowWindow
        client.closeHandler = binding.close
        logger.info("WebSocket attached", metadata: [
            "session": "\(session.shortID)", "scene": "\(session.sceneName)", "resumed": "\(resumed)", "client": "\(address ?? "-")",
        ])
        client.send(OutgoingMessage(.scene(session.sceneMessage(resumed: resumed))))

        socket.onText = binding.receive
        socket.onBinary = binding.receiveBinary
        socket.onBackpressure = binding.backpressure
        socket.onWritable = binding.writable
        socket.onClose = binding.closed
    }
}

/// What joins one WebSocket to its session client. One object, so a socket's callbacks
/// share it rather than each boxing its own captures: an idle session is mostly such
/// small objects. Loop-confined.
///
/// Its references are strong, and the cycles they make (the socket's callbacks hold the
/// binding; the client's sink and close handler hold it too) end when the socket closes:
/// the socket drops its callbacks after `onClose`, and ``closed(_:_:)`` drops the rest.
/// Weak references would give the socket, the client and the session a side table, and
/// every retain and release of them, several per event, would take the slow path.
private final class SocketBinding {
    var socket: WebSocketConnection?
    var client: SessionClient?
    var session: Session?
    let metrics: Metrics
    let logger: Logger
    let eventLatency: LatencyHistogram
    /// Patches nobody asked for are being dropped until the socket drains.
    var dropping = false

    init(socket: WebSocketConnection, session: Session, metrics: Metrics, logger: Logger, eventLatency: LatencyHistogram) {
        self.socket = socket
        self.eventLatency = eventLatency
        self.session = session
        self.metrics = metrics
        self.logger = logger
    }

    func send(_ message: OutgoingMessage) {
        if dropping, message.message.ack == nil, case .patch = message.message {
            return  // resynchronised with a scene once the socket drains
        }
        if case .error(let error) = message.message { logProtocolError(error) }
        let json = message.utf8
        if let socket, socket.send(utf8Text: json) { metrics.countSent(message, bytes: json.count) }
    }

    /// Protocol errors are the client's mistakes: debug, with the session's short id.
    private func logProtocolError(_ error: ErrorMessage) {
        logger.debug("protocol error", metadata: [
            "session": "\(session?.shortID ?? "-")", "code": "\(error.code.rawValue)", "message": "\(error.message)",
        ])
    }

    func close(code: UInt16, reason: String) {
        socket?.close(code: WebSocketCloseCode(code), reason: reason)
    }

    /// One client message, answered before this returns: its time is the event-to-answer
    /// latency. (One call site for `receive(text:)`, so it stays inlined.)
    func receive(_ text: String) {
        let start = LatencyHistogram.now()
        client?.receive(text: text)
        eventLatency.record(nanoseconds: LatencyHistogram.now() - start)
    }

    func receiveBinary(_: [UInt8]) {
        client?.receiveBinary()
    }

    func backpressure() {
        dropping = true
    }

    func writable() {
        guard dropping else { return }
        dropping = false
        if let client, let session, !session.isEnded {
            client.send(OutgoingMessage(.scene(session.sceneMessage(resumed: true))))
        }
    }

    func closed(_ code: WebSocketCloseCode, _: String) {
        if let session {
            logger.info("WebSocket closed", metadata: ["session": "\(session.shortID)", "code": "\(code.rawValue)"])
        }
        client?.disconnect()
        socket = nil
        client = nil
        session = nil
    }
}
