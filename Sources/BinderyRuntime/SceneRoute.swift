import BinderyProtocol
import RxWidgets

/// Where a scene host's events run and where its patches go: this process's sessions
/// (``LocalSceneRoute``), or another route a layer above gives a shared scene that spans
/// processes (events forwarded to the process that runs it, patches published by it).
/// The host calls its route and never asks which one it has. Loop-confined.
package protocol SceneRoute: AnyObject {
    /// Runs `event` from `client` of `session` on `host`, or sends it elsewhere: then nil,
    /// and the answer comes later.
    func handle(_ event: EventMessage, on host: SceneHost, session: Session, client: SessionClient?) -> ServerMessage?

    /// Whether anyone but `client` gets `host`'s patches (only then is their patch built).
    func hasOtherViewers(of host: SceneHost, than client: SessionClient?) -> Bool

    /// Delivers the changes an event from `client` made on `host` to everyone else.
    func deliver(eventPatch patch: PatchMessage, of host: SceneHost, except client: SessionClient?)

    /// Delivers changes no event caused (timers, async work) to everyone but `except`.
    func deliver(flushedPatch patch: PatchMessage, of host: SceneHost, except client: SessionClient?)

    /// This process's number of viewers of `host` is now `count`.
    func viewersChanged(_ count: Int, of host: SceneHost)

    /// The widgets of the `scene` message `session` is sent.
    func widgets(of host: SceneHost, for session: Session) -> [WidgetSnapshot]

    /// Runs `body` once `host` may be read with everything its viewers may already have had
    /// acknowledged (read-your-writes); `false` when that cannot be shown.
    func whenCurrent(_ body: @escaping (_ isCurrent: Bool) -> Void)

    /// Runs `body` (a session handling an HTTP event, which has no client) so that its
    /// answer reaches `reply`, also when the answer comes later.
    func answering(_ reply: @escaping (ServerMessage?) -> Void,
                   _ body: (_ reply: @escaping (ServerMessage?) -> Void) -> Void)
}

/// The route of a scene served by this process alone: events run here, patches go to
/// the host's sessions. Stateless: one instance serves every host.
package final class LocalSceneRoute: SceneRoute, Sendable {
    /// The instance every local host shares.
    package static let shared = LocalSceneRoute()

    private init() {}

    @inline(__always)
    package func handle(_ event: EventMessage, on host: SceneHost, session: Session, client: SessionClient?) -> ServerMessage? {
        host.dispatch(event, session: session, client: client)
    }

    package func hasOtherViewers(of host: SceneHost, than client: SessionClient?) -> Bool {
        host.sessions.contains { $0.hasClient(otherThan: client) }
    }

    package func deliver(eventPatch patch: PatchMessage, of host: SceneHost, except client: SessionClient?) {
        let message = OutgoingMessage(.patch(patch))
        for session in host.sessions { session.broadcast(message, except: client) }
    }

    package func deliver(flushedPatch patch: PatchMessage, of host: SceneHost, except client: SessionClient?) {
        deliver(eventPatch: patch, of: host, except: client)
    }

    package func viewersChanged(_ count: Int, of host: SceneHost) {
        host.context.setViewerCount(count)
    }

    package func widgets(of host: SceneHost, for session: Session) -> [WidgetSnapshot] {
        host.tree.snapshot()
    }

    package func whenCurrent(_ body: @escaping (_ isCurrent: Bool) -> Void) {
        body(true)
    }

    package func answering(_ reply: @escaping (ServerMessage?) -> Void,
                   _ body: (_ reply: @escaping (ServerMessage?) -> Void) -> Void) {
        body(reply)
    }
}
