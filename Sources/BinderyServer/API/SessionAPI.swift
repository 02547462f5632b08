import BinderyCluster
import BinderyProtocol
import BinderyRuntime
import EventLoop
import HTTPServer
import Logging

/// The HTTP API for scripts (JSON in, JSON out; see PROTOCOL.md for curl examples).
///
/// | route | answer |
/// |---|---|
/// | `GET /api/scenes` | `[{"name","title","sharing","page","socket"}]` |
/// | `POST /api/sessions` `{"scene":"echo"}` | 201, the `scene` message; `Location: /api/sessions/<id>` |
/// | `POST /api/sessions[?id=42]` `{"scene":"repo","parameters":{"id":"42"},"screen":"/a"}` | the same, opened with parameters (400 `bad-parameter` if the scene refuses them) and on a screen path |
/// | `GET /api/sessions/<id>` | the current `scene` message (`"resumed": true`; a shared scene on a cluster once this process's mirror is current, else 503 `store-unavailable`) |
/// | `POST /api/sessions/<id>/events` | one event → its answer; an array → an array of answers |
/// | `GET /api/sessions/<id>/events` | Server-Sent Events (``EventStream``) |
/// | `DELETE /api/sessions/<id>` | ends the session: `{"type":"bye","reason":"deleted"}` |
///
/// Errors are JSON `{"error": "<code>", "message": "..."}`: 400 for a body that is not
/// JSON or not the right shape or for parameters the scene refuses, 403 for a refused browser origin, 404 for an unknown
/// scene or session, 429/503 for session limits. Every request for a session without a
/// connection restarts its grace period, so a script keeps a session alive by using it.
final class SessionAPI {
    private let store: SessionStore
    private let origins: OriginPolicy
    private let logger: Logger

    init(store: SessionStore, origins: OriginPolicy, logger: Logger) {
        self.store = store
        self.origins = origins
        self.logger = logger
    }

    func register(on router: Router) {
        router.get("/api/scenes") { [self] request, responder in
            respond(request, responder, listScenes())
        }
        router.post("/api/sessions") { [self] request, responder in
            respond(request, responder, guarded(request) { createSession(request) })
        }
        router.get("/api/sessions/:id") { [self] request, responder in
            withSession(request, responder) { [self] session, done in
                whenCurrent(session, done) {
                    done(.json(MessageEncoder.encode(.scene(session.sceneMessage(resumed: true)))))
                }
            }
        }
        router.post("/api/sessions/:id/events") { [self] request, responder in
            if let refused = guardOrigin(request) { return respond(request, responder, refused) }
            withSession(request, responder) { [self] session, done in postEvents(request, session: session, done) }
        }
        router.get("/api/sessions/:id/events") { [self] request, responder in
            lookUp(request) { [self] result in
                guard case .success(let session?) = result else {
                    // Store trouble is a 503 (try again), not an unknown session.
                    if case .failure(let error) = result {
                        return respond(request, responder, Self.errorResponse(error.httpStatus, code: error.code, message: error.description))
                    }
                    respond(request, responder, Self.errorResponse(404, code: "unknown-session", message: "no such session"))
                    return
                }
                whenCurrent(session, { [self] in respond(request, responder, $0) }) { [self] in
                    guard !responder.isClosed else { return }
                    store.metrics.apiRequests += 1
                    EventStream.serve(session, responder: responder, metrics: store.metrics, logger: logger)
                }
            }
        }
        router.delete("/api/sessions/:id") { [self] request, responder in
            if let refused = guardOrigin(request) { return respond(request, responder, refused) }
            withSession(request, responder) { [self] session, done in
                store.end(session, reason: "deleted")
                done(.json(MessageEncoder.encode(.bye(reason: "deleted"))))
            }
        }
        UploadAPI(store: store, origins: origins).register(on: router)
    }

    // MARK: - Handlers

    private func listScenes() -> HTTPResponse {
        var writer = JSONWriter()
        writer.raw("[")
        for (index, scene) in store.registry.scenes.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.raw("{\"name\":")
            writer.string(scene.name)
            writer.raw(",\"title\":")
            writer.string(scene.title)
            if let description = scene.description {
                writer.raw(",\"description\":")
                writer.string(description)
            }
            writer.raw(",\"sharing\":")
            writer.string(scene.sharing.rawValue)
            writer.raw(",\"page\":")
            writer.string("/scene/\(scene.name)")
            writer.raw(",\"socket\":")
            writer.string("/ws/\(scene.name)")
            writer.raw("}")
        }
        writer.raw("]")
        return .json(writer.text)
    }

    private func createSession(_ request: HTTPRequest) -> HTTPResponse {
        let body: JSONValue
        do throws(JSONError) {
            body = try JSONValue.parse(request.body)
        } catch {
            return Self.errorResponse(400, code: ErrorCode.badJSON.rawValue, message: "the body is not JSON: \(error)")
        }
        guard let scene = body["scene"]?.stringValue else {
            return Self.errorResponse(400, code: ErrorCode.badMessage.rawValue, message: "expected {\"scene\": \"<name>\"}")
        }
        // Scene parameters: the query's (`?id=42`), then the body's `parameters` object.
        var parameters = SceneContext.parameters(fromQuery: request.queryItems)
        if let given = body["parameters"] {
            guard case .object(let members) = given else {
                return Self.errorResponse(400, code: ErrorCode.badMessage.rawValue, message: "\"parameters\" must be an object of strings")
            }
            for member in members {
                guard let text = Self.parameterText(member.value) else {
                    return Self.errorResponse(400, code: ErrorCode.badMessage.rawValue,
                                              message: "parameter '\(member.key)' must be a string, a number or a boolean")
                }
                parameters[member.key] = text
            }
        }
        let screenPath = SceneContext.screenPath(from: body["screen"]?.stringValue ?? request.queryValue("screen"))
        do throws(SessionError) {
            let session = try store.createSession(scene: scene, parameters: parameters, screenPath: screenPath,
                                                  clientAddress: request.remoteAddress?.host)
            return .json(MessageEncoder.encode(.scene(session.sceneMessage(resumed: false))), status: 201,
                         headers: ["Location": "/api/sessions/\(session.id)", Self.sessionHeader: session.id])
        } catch {
            return Self.errorResponse(error.httpStatus, code: error.code, message: error.description)
        }
    }

    /// A JSON parameter value as the text a URL would carry (`42`, `true`, `"a"`).
    private static func parameterText(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number):
            return number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        default: return nil
        }
    }

    /// Answers one event or an array of them; with a store, once the store has them.
    private func postEvents(_ request: HTTPRequest, session: Session, _ done: @escaping (HTTPResponse) -> Void) {
        let body: JSONValue
        do throws(JSONError) {
            body = try JSONValue.parse(request.body)
        } catch {
            store.metrics.countError(.badJSON)
            let answer = ServerMessage.error(ErrorMessage(code: .badJSON, message: "the body is not JSON: \(error)"))
            return done(.json(MessageEncoder.encode(answer), status: 400))
        }
        guard case .array(let messages) = body else {
            return answer(to: request.bodyText, session: session) { done(.json($0)) }
        }
        // Each answer in its message's place (a shared scene's forwarded events are
        // answered later than those refused at once).
        var answers = [String](repeating: "null", count: messages.count)
        var answered = 0
        let finish = {
            var writer = JSONWriter()
            writer.raw("[")
            for (index, answer) in answers.enumerated() {
                if index > 0 { writer.raw(",") }
                writer.raw(json: answer)
            }
            writer.raw("]")
            done(.json(writer.text))
        }
        if messages.isEmpty { return finish() }
        for (index, message) in messages.enumerated() {
            answer(to: message.jsonText, session: session) { json in
                answers[index] = json
                answered += 1
                if answered == messages.count { finish() }
            }
        }
    }

    private func answer(to text: String, session: Session, _ reply: @escaping (String) -> Void) {
        guard !session.isEnded else { return reply(MessageEncoder.encode(.bye(reason: session.endReason ?? "ended"))) }
        let encoded = { (answer: ServerMessage?) in reply(answer.map { MessageEncoder.encode($0) } ?? "null") }
        // A scene shared across processes answers later, through its owner's outbox.
        let route = session.host?.route ?? LocalSceneRoute.shared
        route.answering(encoded) { session.handle(text: text, from: nil, reply: $0) }
    }

    // MARK: - Helpers

    /// `X-Bindery-Session`: the token, on `POST /api/sessions` and the WebSocket's 101,
    /// so a proxy can learn which server holds it.
    static let sessionHeader = "X-Bindery-Session"

    /// The session the request names: held here, or (with a store) taken over.
    private func lookUp(_ request: HTTPRequest, _ completion: @escaping (Result<Session?, SessionError>) -> Void) {
        guard let id = request.parameters["id"] else { return completion(.success(nil)) }
        store.session(id: id) { [store] result in
            if case .success(let session?) = result { store.touch(session) }
            completion(result)
        }
    }

    /// Runs `body` with the request's session and responds with what it gives `done`;
    /// 404 for no such session, 503 when the store is unavailable.
    private func withSession(_ request: HTTPRequest, _ responder: HTTPResponder,
                             _ body: @escaping (Session, @escaping (HTTPResponse) -> Void) -> Void) {
        lookUp(request) { [self] result in
            switch result {
            case .success(let session?):
                body(session) { [self] in respond(request, responder, $0) }
            case .success(nil):
                respond(request, responder, Self.errorResponse(404, code: "unknown-session",
                                                               message: "no such session (unknown, ended or expired)"))
            case .failure(let error):
                respond(request, responder, Self.errorResponse(error.httpStatus, code: error.code, message: error.description))
            }
        }
    }

    /// Runs `serve` once `session`'s scene may be read: at once, except for a scene shared
    /// across processes, whose mirror first catches up with what the owner's outbox held
    /// when the request came — read-your-writes, as for a WebSocket's `scene`
    /// (``SceneRoute/whenCurrent(_:)``): an event acknowledged through another process
    /// is in what this one answers. When that cannot be shown (Redis did not answer, the
    /// wait ran out, the link stopped) the answer is a 503 `store-unavailable` through
    /// `refuse`, never a stale scene.
    private func whenCurrent(_ session: Session, _ refuse: @escaping (HTTPResponse) -> Void, serve: @escaping () -> Void) {
        guard let route = session.host?.route else { return serve() }
        route.whenCurrent { isCurrent in
            guard isCurrent else {
                return refuse(Self.errorResponse(503, code: ErrorCode.storeUnavailable.rawValue,
                                                 message: "the shared scene is catching up; try again"))
            }
            guard !session.isEnded else {
                return refuse(Self.errorResponse(503, code: ErrorCode.storeUnavailable.rawValue,
                                                 message: "the session ended meanwhile; try again"))
            }
            serve()
        }
    }

    /// State-changing routes refuse foreign browser origins (CSRF).
    private func guarded(_ request: HTTPRequest, _ body: () -> HTTPResponse) -> HTTPResponse {
        guardOrigin(request) ?? body()
    }

    /// The 403 for a foreign browser origin, or nil.
    private func guardOrigin(_ request: HTTPRequest) -> HTTPResponse? {
        guard origins.allows(origin: request.headers["Origin"], host: request.headers["Host"]) else {
            return Self.errorResponse(403, code: "origin-not-allowed",
                                      message: "origin \(request.headers["Origin"] ?? "") is not allowed")
        }
        return nil
    }

    private func respond(_ request: HTTPRequest, _ responder: HTTPResponder, _ response: HTTPResponse) {
        store.metrics.apiRequests += 1
        var response = response
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        responder.respond(response)
    }

    /// `{"error": code, "message": message}` with `status`.
    static func errorResponse(_ status: Int, code: String, message: String) -> HTTPResponse {
        var writer = JSONWriter()
        writer.raw("{\"error\":")
        writer.string(code)
        writer.raw(",\"message\":")
        writer.string(message)
        writer.raw("}")
        return .json(writer.text, status: status)
    }

    /// A path with session tokens shortened, for logs.
    static func redacted(_ path: String) -> String {
        let prefix = "/api/sessions/"
        guard path.hasPrefix(prefix) else { return path }
        let rest = path.dropFirst(prefix.count)
        let token = rest.prefix { $0 != "/" }
        guard token.count > 6 else { return path }
        return prefix + token.prefix(6) + "…" + rest.dropFirst(token.count)
    }
}
