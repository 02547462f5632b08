import BinderyProtocol
import BinderyRuntime
import RxWidgets

/// A linked scene's route: its edge forwards events to the owner and serves the mirror;
/// the owner's engine publishes what its events and timers change.
extension SharedSceneLink: SceneRoute {
    package func handle(_ event: EventMessage, on host: SceneHost, session: Session, client: SessionClient?) -> ServerMessage? {
        edge.forward(event, session: session, client: client)
    }

    /// Always: every process's viewers get the owner's patches.
    package func hasOtherViewers(of host: SceneHost, than client: SessionClient?) -> Bool {
        true
    }

    package func deliver(eventPatch patch: PatchMessage, of host: SceneHost, except client: SessionClient?) {
        owner.capture(patch, from: host)
    }

    package func deliver(flushedPatch patch: PatchMessage, of host: SceneHost, except client: SessionClient?) {
        owner.flushed(patch, from: host)
    }

    package func viewersChanged(_ count: Int, of host: SceneHost) {
        edge.localViewersChanged(count)  // the owner sums every process's
    }

    package func widgets(of host: SceneHost, for session: Session) -> [WidgetSnapshot] {
        edge.mirrorWidgets(for: session)
    }

    package func answering(_ reply: @escaping (ServerMessage?) -> Void,
                   _ body: (_ reply: @escaping (ServerMessage?) -> Void) -> Void) {
        edge.answering(reply) {
            // A shared session answers at once (it has no journal), or not at all when the
            // event was forwarded.
            var answer: ServerMessage?
            body { answer = $0 }
            return answer
        }
    }
}

extension SceneHost {
    /// The link of a shared scene that spans processes; nil for a local one.
    package var sharedLink: SharedSceneLink? { route as? SharedSceneLink }
}
