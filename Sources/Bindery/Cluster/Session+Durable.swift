/// The event path of a store-backed session: write before ack (see ``SessionJournal``).
extension Session {
    /// The close reason (code 4001) of a session that another process took over.
    static let movedReason = "session moved"

    /// Handles `text` from `client` and gives the answer to `reply`: at once without a
    /// store (as ``handle(text:from:)``), and for a store-backed session once the store
    /// has the event, in the order the messages came. (With a store, use this or
    /// ``SessionClient/receive(text:)``: the synchronous ``handle(text:from:)`` answers
    /// before the store has the event.)
    public func handle(text: String, from client: SessionClient?, reply: @escaping (ServerMessage?) -> Void) {
        guard let journal else { return reply(handle(text: text, from: client)) }
        switch MessageDecoder.decode(text) {
        case .success(let message):
            handle(message, from: client, reply: reply)
        case .failure(let failure):
            store?.metrics.countError(failure.error.code)
            journal.answer(.error(ErrorMessage(ack: failure.seq, failure.error)), reply: reply)
        }
    }

    /// Handles `message` from `client`; see ``handle(text:from:reply:)``.
    public func handle(_ message: ClientMessage, from client: SessionClient?, reply: @escaping (ServerMessage?) -> Void) {
        guard let journal else { return reply(handle(message, from: client)) }
        guard case .event(let event) = message else {
            return journal.answer(handle(message, from: client), reply: reply)
        }
        guard let host, !isEnded, let store else {
            return journal.answer(handle(message, from: client), reply: reply)
        }
        guard let persistence = store.persistence, persistence.isAvailable, !journal.isDiverged, !store.isDraining,
              !journal.isReleasing else {
            store.metrics.countError(.storeUnavailable)
            journal.owesScene = true
            return journal.answer(Self.storeUnavailable(event, moved: journal.isReleasing), reply: reply)
        }
        let pending = journal.begin(reply: reply)
        guard let answer = handle(message, from: client) else { return journal.finish(pending, answer: nil) }
        // Only what changed the scene is journaled: a refused event (unknown target, bad
        // value, rate limit) changed nothing. A failed binding may have changed some.
        if case .error(let error) = answer, error.code != .bindingFailed {
            return journal.finish(pending, answer: answer)
        }
        let (entry, state) = journal.record(event, host: host)
        persistence.append(token: id, epoch: journal.epoch, seq: event.seq, event: entry, state: state) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success:
                journal.finish(pending, answer: answer)
            case .failure(.fenced):
                journal.finish(pending, answer: Self.storeUnavailable(event, moved: true))
                self.store?.drop(self)
            case .failure(.unavailable), .failure(.otherScene):  // (an append names no scene)
                // The scene here is now ahead of the journal: rebuilt from the store
                // once it is back (``SessionStore/recover()``).
                journal.isDiverged = true
                self.store?.metrics.countError(.storeUnavailable)
                journal.finish(pending, answer: Self.storeUnavailable(event))
            }
        }
    }

    static func storeUnavailable(_ event: EventMessage, moved: Bool = false) -> ServerMessage {
        .error(ErrorMessage(ack: event.seq, code: .storeUnavailable,
                            message: moved ? "the session moved to another server; send it again there"
                                           : "the session store is unavailable; the event was not acknowledged, send it again",
                            target: event.target))
    }

    /// Sends `message` to `client` behind the answers waiting for the store.
    func send(_ message: OutgoingMessage, to client: SessionClient) {
        if let journal, journal.isHolding {
            journal.hold(message, for: client)
        } else {
            client.send(message)
        }
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
