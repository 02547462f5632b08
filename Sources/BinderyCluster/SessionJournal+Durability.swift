import BinderyProtocol
import BinderyRuntime

/// The event path of a store-backed session: write before ack. An accepted event's answer
/// waits until the store confirms its journal write; whatever the session sends meanwhile
/// queues behind it.
extension SessionJournal: SessionDurability {
    package func handle(_ message: ClientMessage, of session: Session, from client: SessionClient?, reply: SessionReply) {
        guard case .event(let event) = message, let host = session.host, !session.isEnded, let store = session.store else {
            return answer(session.apply(message, from: client), reply: reply)
        }
        guard let persistence = store.persistence, persistence.isAvailable, !isDiverged, !store.isDraining,
              !isReleasing else {
            store.metrics.countError(.storeUnavailable)
            owesScene = true
            return answer(Session.storeUnavailable(event, moved: isReleasing), reply: reply)
        }
        let pending = begin(reply: reply)
        guard let answer = session.apply(message, from: client) else { return finish(pending, answer: nil) }
        // Only what changed the scene is journaled: a refused event (unknown target, bad
        // value, rate limit) changed nothing. A failed binding may have changed some.
        if case .error(let error) = answer, error.code != .bindingFailed {
            return finish(pending, answer: answer)
        }
        let (entry, state) = record(event, host: host)
        persistence.append(token: session.id, epoch: epoch, seq: event.seq, event: entry, state: state) { [weak session] result in
            guard let session else { return }
            switch result {
            case .success:
                self.finish(pending, answer: answer)
            case .failure(.fenced):
                self.finish(pending, answer: Session.storeUnavailable(event, moved: true))
                session.store?.durableSessions?.drop(session)
            case .failure(.unavailable), .failure(.otherScene):  // (an append names no scene)
                // The scene here is now ahead of the journal: rebuilt from the store
                // once it is back (``DurableSessions/recover()``).
                self.isDiverged = true
                session.store?.metrics.countError(.storeUnavailable)
                self.finish(pending, answer: Session.storeUnavailable(event))
            }
        }
    }

    package func answer(_ answer: ServerMessage, reply: SessionReply) {
        self.answer(Optional(answer), reply: reply)
    }
}
