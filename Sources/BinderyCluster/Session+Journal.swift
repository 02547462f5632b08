import BinderyProtocol
import BinderyRuntime

/// A store-backed session's journal and what the store's recovery does to a session.
extension Session {
    /// The session's journal in the store; nil without a store (or for a shared scene).
    package var journal: SessionJournal? {
        get { durability as? SessionJournal }
        set { durability = newValue ?? ImmediateDurability.shared }
    }

    static func storeUnavailable(_ event: EventMessage, moved: Bool = false) -> ServerMessage {
        .error(ErrorMessage(ack: event.seq, code: .storeUnavailable,
                            message: moved ? "the session moved to another server; send it again there"
                                           : "the session store is unavailable; the event was not acknowledged, send it again",
                            target: event.target))
    }

    /// Swaps the scene instance for `newHost` (rebuilt from the store after store
    /// trouble) and sends every client the new scene.
    func replaceHost(with newHost: SceneHost) {
        guard !isEnded else { return newHost.dispose() }
        if let host {
            host.detach(self)
            host.dispose()
        }
        host = newHost
        newHost.attach(self)
        newHost.updateViewerCount()
        // Behind the answers and patches still held for the store (they belong to the old
        // instance): the new scene must reach the client after them, or they would be
        // applied on top of it.
        let scene = OutgoingMessage(.scene(sceneMessage(resumed: true)))
        for client in clients { send(scene, to: client) }
    }
}
