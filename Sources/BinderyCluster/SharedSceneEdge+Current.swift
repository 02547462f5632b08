import BinderyProtocol
import BinderyRuntime
import EventLoop

/// Read-your-writes for a shared scene's `scene` message: an edge serves a connecting
/// client from its mirror only once the mirror has applied every outbox entry that
/// existed when the client came. A client may have had answers through another process
/// (or this one, before a freeze) that this mirror has not read yet: a process woken
/// from SIGSTOP reads first the outbox entries its blocked `XREAD` got before the
/// freeze, so its mirror is seconds old while its accept queue already holds the
/// resumes of clients that moved on.
///
/// The cost is one round trip to Redis (`XREVRANGE … COUNT 1`,
/// ``SharedSceneStreams/newestOutboxID(scene:_:)``, pipelined with the process's other
/// commands) per WebSocket upgrade of a shared scene, plus the mirror's
/// lag when it is behind (usually none).
extension SharedSceneEdge {
    /// One `scene` waiting for the mirror to reach `target` (an outbox entry id).
    struct CurrentWaiter {
        let target: StreamID
        let body: (Bool) -> Void
        let timer: LoopTimer
        let token: Token
    }

    /// One waiter's identity and whether its body ran (once, by whichever comes first).
    final class Token {
        var isDone = false
    }

    /// A stream entry id, ordered as Redis orders them.
    typealias StreamID = SharedSceneStreamID

    /// How long a `scene` waits for a mirror that does not catch up (its reader is
    /// reconnecting): then the client is told to try again.
    static var currentWaitLimit: Duration { .milliseconds(1500) }

    /// Runs `body(true)` once the mirror holds at least what the outbox held now;
    /// `body(false)` when that cannot be known or reached — Redis cannot say, the link
    /// stops, or ``currentWaitLimit`` passed (the round trip included: the command
    /// connection's own timeout is 5 s) — so that a stale scene is never served: the
    /// client is told to try again instead.
    package func whenCurrent(_ body: @escaping (_ isCurrent: Bool) -> Void) {
        guard !isStopped else { return body(false) }
        let token = Token()
        let once = { [weak self, token] (current: Bool) in
            guard !token.isDone else { return }
            token.isDone = true
            // The frame owed to viewers first: the scene then holds every patch read so far
            // (an answer this client had may be in it).
            if current, let self, self.fanOut?.hasPending == true { self.sendFrame() }
            body(current)
        }
        let timer = cluster.loop.scheduleTimer(after: Self.currentWaitLimit) { [weak self] in
            guard !token.isDone else { return }
            if let self {
                self.currentWaiters.removeAll { $0.token === token }
                self.cluster.log("shared scene '\(self.name)': mirror not current after \(Self.currentWaitLimit); the client is to try again")
            }
            once(false)
        }
        streams.newestOutboxID(scene: name) { [weak self] result in
            guard !token.isDone else { return }
            guard let self, !self.isStopped, case .success(let newest) = result else {
                timer.close()
                return once(false)
            }
            // An empty outbox: the snapshot (or the scene as built) is all there is.
            let target = newest.flatMap(StreamID.init) ?? StreamID("0-0")!
            if self.isCurrent(at: target) {
                timer.close()
                return once(true)
            }
            self.currentWaiters.append(CurrentWaiter(target: target, body: once, timer: timer, token: token))
        }
    }

    private func isCurrent(at target: StreamID) -> Bool {
        guard fanOut != nil, let applied = StreamID(lastOutID) else { return false }
        return applied >= target
    }

    /// Serves the waiting scenes the mirror has caught up with; with `all` (the link
    /// stops) answers every one, those not caught up with `false`.
    func releaseCurrentWaiters(all: Bool = false) {
        guard !currentWaiters.isEmpty else { return }
        var ready: [CurrentWaiter] = []
        currentWaiters.removeAll { waiter in
            guard all || isCurrent(at: waiter.target) else { return false }
            ready.append(waiter)
            return true
        }
        for waiter in ready {
            waiter.timer.close()
            waiter.body(isCurrent(at: waiter.target))
        }
    }
}
