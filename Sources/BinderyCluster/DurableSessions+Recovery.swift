import BinderyProtocol
import BinderyRuntime
import Foundation

/// Records, refreshes and recovery after store trouble. A per-connection session's own
/// write-path state (diverged, recovering) lives on its ``SessionJournal``; the tokens'
/// record states live in the ``DurableSessionMachine``.
extension DurableSessions {
    /// Records a new per-connection session in the store (``DurableSessionState/creating(waiters:)``).
    func persist(_ session: Session) {
        session.journal = SessionJournal(epoch: 1, restoration: session.scene.restoration)
        handle(.recordRequested(token: session.id))
    }

    /// Records a new session of a shared scene in the store (scene name only, at epoch
    /// 1), so that another process finds its token.
    func recordShared(_ session: Session) {
        handle(.sharedRecordRequested(token: session.id))
    }

    /// Takes over the store record of a shared scene's session resumed here under its
    /// token (recording it if the store has none).
    func adoptShared(_ session: Session) {
        handle(.sharedTakeoverRequested(token: session.id))
    }

    /// One refresh tick's writes: the sessions' TTLs (fenced, so an idle old owner learns
    /// of a takeover), the shared scenes' records, and a recovery if any session diverged.
    func refreshSessions(wholeRound: Bool) {
        guard let persistence else { return }
        var diverged = false
        for session in store.byID.values {
            guard let journal = session.journal, wholeRound || session.clients.isEmpty else { continue }
            if journal.isDiverged {
                diverged = true
                continue
            }
            persistence.refresh(token: session.id, epoch: journal.epoch) { [weak self, weak session] result in
                if case .failure(.fenced) = result, let self, let session, !session.isEnded {
                    self.store.log("session \(session.shortID) was taken over elsewhere")
                    self.store.end(session, reason: Session.movedReason)
                }
            }
        }
        // A shared scene's session made or resumed here while the store was unavailable has
        // no record yet: taken over if a client is here; else only recorded if nobody has
        // the token (taking it over would take it from the process its client went to).
        for session in Array(store.byID.values) where session.journal == nil && machine.state(of: session.id) == nil
                                                     && sharedScenes != nil && session.scene.sharing == .shared {
            if session.clients.isEmpty {
                recordShared(session)
            } else {
                adoptShared(session)
            }
        }
        for (token, epoch) in machine.sharedRecords where wholeRound || store.byID[token]?.clients.isEmpty ?? true {
            persistence.refresh(token: token, epoch: epoch) { [weak self] result in
                self?.handle(.sharedRefreshAnswered(token: token, epoch: epoch, DurableAnswer(result)))
            }
        }
        if diverged { recover() }
    }

    /// Rebuilds, from the store, every session whose scene got ahead of its journal
    /// while the store was unreachable; their clients get the rebuilt `scene`.
    func recover() {
        guard let persistence, mode == .available else { return }
        forgetUnrecorded()
        for session in store.byID.values {
            guard let journal = session.journal, journal.owesScene, !journal.isDiverged else { continue }
            journal.owesScene = false
            let scene = OutgoingMessage(.scene(session.sceneMessage(resumed: true)))
            for client in session.clients { session.send(scene, to: client) }
        }
        for session in store.byID.values {
            guard let journal = session.journal, journal.isDiverged, !journal.isRecovering else { continue }
            journal.isRecovering = true
            if machine.state(of: session.id) == .unrecorded {
                recordAgain(session, journal: journal)
                continue
            }
            persistence.takeOver(token: session.id) { [weak self, weak session] result in
                journal.isRecovering = false
                guard let self, let session, !session.isEnded, journal.isDiverged else { return }
                switch result {
                case .success(let stored?):
                    do throws(ProtocolError) {
                        let host = try self.store.host(for: session.scene, parameters: session.sceneParameters)
                        Self.restoreState(stored, into: host, session: session)
                        journal.adopt(stored)
                        journal.isDiverged = false
                        session.replaceHost(with: host)
                        self.store.log("session \(session.shortID) rebuilt from the store (epoch \(stored.epoch))")
                    } catch {
                        self.store.end(session, reason: "scene failed")
                    }
                case .success(nil):
                    self.store.end(session, reason: "expired")
                case .failure(.fenced):
                    self.store.end(session, reason: Session.movedReason)
                case .failure:
                    break  // still unreachable: the next refresh or reconnect tries again
                }
            }
        }
    }

    /// Records a session whose creation the store did not confirm: from a fresh scene (no
    /// event of it was acknowledged), at epoch 1. If the first creation did land after all
    /// (the record exists), it is rebuilt from the store as any diverged session.
    private func recordAgain(_ session: Session, journal: SessionJournal) {
        guard let persistence else { return }
        let stored = StoredSession(token: session.id, scene: session.sceneName,
                                   createdAt: session.createdAt.timeIntervalSince1970, restoration: journal.restoration,
                                   parameters: session.sceneParameters)
        persistence.create(stored) { [weak self, weak session] result in
            journal.isRecovering = false
            guard let self, let session, !session.isEnded, journal.isDiverged else { return }
            self.handle(.recordedAgain(token: session.id, DurableAnswer(result)))
        }
    }

    /// A session recorded afresh: a fresh scene at epoch 1 (none of its events was
    /// acknowledged).
    func rebuildFresh(token: String) {
        guard let session = store.byID[token], !session.isEnded, let journal = session.journal else { return }
        do throws(ProtocolError) {
            let host = try store.host(for: session.scene, parameters: session.sceneParameters)
            host.flush()
            journal.epoch = 1
            journal.isDiverged = false
            journal.owesScene = false
            session.replaceHost(with: host)
            store.log("session \(session.shortID) recorded in the store (a fresh scene: none of its events was acknowledged)")
        } catch {
            store.end(session, reason: "scene failed")
        }
    }
}
