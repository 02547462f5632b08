/// A store-backed session's durable side: its fencing epoch, how it is restored, and
/// the messages held back until the store has the events before them.
///
/// **Write before ack.** An accepted event's answer waits in ``outbox`` until the store
/// confirms the event's journal write; everything the session sends meanwhile (patches to
/// its other clients, answers to later events) queues behind it, so each client sees
/// messages in the order they were made and never an ack the store does not back.
/// Sessions without a store have no journal and pay nothing.
///
/// Loop-confined.
final class SessionJournal {
    /// An answer waiting for its write.
    final class Pending {
        var answer: ServerMessage?
        var isDone = false
        let reply: (ServerMessage?) -> Void

        init(reply: @escaping (ServerMessage?) -> Void) {
            self.reply = reply
        }
    }

    private enum Entry {
        case answer(Pending)
        case message(OutgoingMessage, SessionClient)
    }

    /// The session's epoch in the store: every write carries it.
    var epoch: Int64
    /// How the session is rebuilt elsewhere.
    let restoration: SceneRestoration
    /// A write failed with the store unreachable: the scene here may be ahead of the
    /// journal, so events are refused (`store-unavailable`) until the session is rebuilt
    /// from the store.
    var isDiverged = false
    /// An event was refused `store-unavailable` before it ran: the clients get a fresh
    /// `scene` once the store is back, which makes them send their unacknowledged edits.
    var owesScene = false
    /// A rebuild from the store is in flight (one at a time).
    var isRecovering = false

    private var outbox: [Entry] = []
    private var head = 0
    private var isDraining = false

    init(epoch: Int64, restoration: SceneRestoration) {
        self.epoch = epoch
        self.restoration = restoration
    }

    /// Whether messages must queue (an answer is waiting for the store).
    var isHolding: Bool { head < outbox.count }

    /// Writes not yet answered.
    var waitingCount: Int {
        outbox[head...].reduce(0) { count, entry in
            if case .answer(let pending) = entry, !pending.isDone { return count + 1 }
            return count
        }
    }

    /// Queues an answer slot (before the event is dispatched, so whatever dispatch sends
    /// lands behind it).
    func begin(reply: @escaping (ServerMessage?) -> Void) -> Pending {
        let pending = Pending(reply: reply)
        outbox.append(.answer(pending))
        return pending
    }

    /// The answer is ready (the write succeeded, or none was needed): sends what can go.
    func finish(_ pending: Pending, answer: ServerMessage?) {
        pending.answer = answer
        pending.isDone = true
        drain()
    }

    /// Answers `reply` in order: at once when nothing waits.
    func answer(_ answer: ServerMessage?, reply: @escaping (ServerMessage?) -> Void) {
        guard isHolding else { return reply(answer) }
        finish(begin(reply: reply), answer: answer)
    }

    /// Holds `message` for `client` behind the waiting answers.
    func hold(_ message: OutgoingMessage, for client: SessionClient) {
        outbox.append(.message(message, client))
    }

    private func drain() {
        guard !isDraining else { return }
        isDraining = true
        defer { isDraining = false }
        while head < outbox.count {
            switch outbox[head] {
            case .answer(let pending):
                guard pending.isDone else { return }
                head += 1
                pending.reply(pending.answer)
            case .message(let message, let client):
                head += 1
                client.send(message)
            }
            if head == outbox.count {
                outbox.removeAll(keepingCapacity: outbox.capacity <= 64)
                head = 0
            }
        }
    }
}
