import BinderyProtocol
import BinderyRuntime

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
package final class SessionJournal {
    /// An answer waiting for its write.
    final class Pending {
        var answer: ServerMessage?
        var isDone = false
        let reply: SessionReply

        init(reply: SessionReply) {
            self.reply = reply
        }
    }

    private enum Entry {
        case answer(Pending)
        case message(OutgoingMessage, SessionClient)
    }

    /// The events after which a `.replay` session whose scene adopts ``StateRestoring``
    /// is compacted: its controls' values and its encoded state replace the journal,
    /// bounding the store's memory and a takeover's replay. A scene without
    /// ``StateRestoring`` keeps its whole journal: dropping events it cannot rebuild
    /// otherwise would lose acknowledged input.
    package static let maxLength = 1_000

    /// The session's epoch in the store: every write carries it.
    package var epoch: Int64
    /// How the session is rebuilt elsewhere.
    let restoration: SceneRestoration
    /// Events in the store's journal since the last compaction.
    private(set) var length = 0
    /// This copy was rebuilt inexactly (its compacted state could not be read back, so
    /// only what decoded was restored). Its `scene` says `"restored": false` until an
    /// event is accepted.
    package var isRestoredInexactly = false
    /// A write failed with the store unreachable: the scene here may be ahead of the
    /// journal, so events are refused (`store-unavailable`) until the session is rebuilt
    /// from the store.
    package var isDiverged = false
    /// An event was refused `store-unavailable` before it ran: the clients get a fresh
    /// `scene` once the store is back, which makes them send their unacknowledged edits.
    var owesScene = false
    /// A rebuild from the store is in flight (one at a time).
    var isRecovering = false
    /// Being released to another process that asked for it: new events are refused.
    var isReleasing = false

    private var outbox: [Entry] = []
    private var head = 0
    private var isDraining = false

    init(epoch: Int64, restoration: SceneRestoration) {
        self.epoch = epoch
        self.restoration = restoration
    }

    /// A journal for `stored`, taken over (or rebuilt) here.
    convenience init(_ stored: StoredSession) {
        self.init(epoch: stored.epoch, restoration: stored.restoration)
        adopt(stored)
    }

    /// Takes `stored`'s epoch and journal length (a rebuild from the store).
    func adopt(_ stored: StoredSession) {
        epoch = stored.epoch
        length = stored.journal.count
    }

    /// What to write for an accepted `event`: its JSON for the journal and/or the scene's
    /// encoded state (which, when given, replaces the journal: see ``RedisSessionScripts/append``).
    func record(_ event: EventMessage, host: SceneHost) -> (event: String?, state: String?) {
        isRestoredInexactly = false
        switch restoration {
        case .none:
            return (nil, nil)
        case .encoded:
            return (nil, Self.encodedState(of: host.controller))
        case .replay:
            if length < Self.maxLength || !(host.controller is StateRestoring) {
                length += 1
                return (event.journalJSON, nil)
            }
            length = 0  // compacted: the scene after this event replaces the journal
            return (nil, Self.compacted(host))
        }
    }

    /// A `.replay` session's compacted journal: `{"widgets":[…],"coder":{…}}`, the
    /// widgets as a `scene` message has them and the scene's ``StateRestoring`` state.
    static func compacted(_ host: SceneHost) -> String {
        var writer = JSONWriter()
        writer.raw("{\"widgets\":")
        writer.raw(json: MessageEncoder.encodeWidgets(host.tree.snapshot()))
        writer.raw(",\"coder\":")
        writer.raw(json: encodedState(of: host.controller) ?? "null")
        writer.raw("}")
        return writer.text
    }

    /// Rebuilds a compacted journal into a fresh `host`: the controls' values, then the
    /// scene's own state. False when that is not the exact state (unreadable, or the
    /// scene no longer adopts ``StateRestoring``).
    static func restoreCompacted(_ json: String, into host: SceneHost) -> Bool {
        guard let value = try? JSONValue.parse(json), let widgets = value["widgets"],
              let snapshot = try? MessageDecoder.decodeWidgets(widgets) else { return false }
        host.restoreControlValues(from: snapshot)
        guard let restoring = host.controller as? StateRestoring else { return false }
        if let coded = value["coder"], let coder = StateCoder(json: coded.jsonText) {
            restoring.decodeRestorableState(with: coder)
        }
        return true
    }

    private static func encodedState(of controller: AnyObject?) -> String? {
        guard let restoring = controller as? StateRestoring else { return nil }
        let coder = StateCoder()
        restoring.encodeRestorableState(with: coder)
        return coder.json
    }

    /// Whether messages must queue (an answer is waiting for the store).
    package var isHolding: Bool { head < outbox.count }

    /// Writes not yet answered.
    var waitingCount: Int {
        outbox[head...].reduce(0) { count, entry in
            if case .answer(let pending) = entry, !pending.isDone { return count + 1 }
            return count
        }
    }

    /// Queues an answer slot (before the event is dispatched, so whatever dispatch sends
    /// lands behind it).
    func begin(reply: SessionReply) -> Pending {
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
    package func answer(_ answer: ServerMessage?, reply: SessionReply) {
        guard isHolding else { return reply(answer) }
        finish(begin(reply: reply), answer: answer)
    }

    /// Holds `message` for `client` behind the waiting answers.
    package func hold(_ message: OutgoingMessage, for client: SessionClient) {
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
