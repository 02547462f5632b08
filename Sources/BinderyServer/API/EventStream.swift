import BinderyCluster
import BinderyProtocol
import BinderyRuntime
import EventLoop
import HTTPServer
import Logging

/// `GET /api/sessions/<id>/events`: a session's messages as Server-Sent Events.
///
/// The stream starts with a `scene` event (the full state, `"resumed": true`), then
/// carries one event per message the session sends its clients: `patch` (one per
/// patch), `error`, `bye` (then the stream ends). Its `event:` field is the message's
/// `type`, its `data:` the message's JSON. A comment line every 15 s keeps proxies from
/// timing it out. An open stream counts as a connection (the session does not expire
/// while it is open; `board`'s viewers count it) until the client leaves: its EOF ends
/// the stream at once (``HTTPResponder/startEventStream(headers:)``), without waiting for
/// a write to fail, so a departed viewer stops counting even on a quiet board (through
/// HAProxy too, with `option abortonclose`, see deploy/haproxy.cfg).
///
/// A scene shared across processes is streamed only once this process's mirror holds
/// what the owner had acknowledged when the request came (``SessionAPI`` waits for
/// ``SharedSceneLink/whenCurrent(_:)``; 503 `store-unavailable` if it cannot be shown),
/// so a client that posted an event elsewhere never sees a scene before its own write.
enum EventStream {
    static let keepAliveInterval: Duration = .seconds(15)

    static func serve(_ session: Session, responder: HTTPResponder, metrics: Metrics, logger: Logger) {
        guard responder.startEventStream(headers: ["X-Accel-Buffering": "no"]) else { return }
        let client = session.attach(kind: .eventStream) { [weak responder] message in
            guard let responder else { return }
            let json = message.json
            if responder.sendEvent(json, event: message.message.type) {
                metrics.countSent(message, bytes: json.utf8.count)
            }
        }
        let keepAlive = responder.loop.scheduleTimer(after: keepAliveInterval, repeating: keepAliveInterval) { [weak responder] in
            _ = responder?.sendComment("keep-alive")
        }
        client.closeHandler = { [weak responder] _, _ in
            keepAlive.close()
            responder?.end()
        }
        responder.onClose = { [weak client] _ in
            keepAlive.close()
            client?.disconnect()
        }
        logger.info("event stream attached", metadata: ["session": "\(session.shortID)", "scene": "\(session.sceneName)"])
        client.send(OutgoingMessage(.scene(session.sceneMessage(resumed: true))))
    }
}
