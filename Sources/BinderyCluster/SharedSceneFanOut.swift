import BinderyProtocol
import BinderyRuntime
import RxWidgets

/// What an edge process owes its viewers of one shared scene, sent in frames.
///
/// Answers leave at once: a client that sent some of a batch's events gets, right away,
/// the patches before each of its answers (merged) and then the answer. Everybody else's
/// patches wait for the next frame (``SharedSceneEdge`` flushes at most once per
/// `viewerFrameInterval`, at once when the last flush was longer ago): then every viewer
/// gets the frame's patches merged into one message, encoded once. Each viewer write is a
/// system call, so with hundreds of viewers this bounds the fan-out's cost per second
/// however many events arrive, and the answers never wait behind it. Order and end state
/// are kept: merged patches have the same effect as the patches in turn
/// (``SharedScenePatchBatch/merge(_:)``), and a sender that got ahead gets only what
/// came after its last answer.
///
/// It also holds the scene as its viewers were last brought to (the mirror as of the
/// last flush): a scene served meanwhile is that state, and its receivers get the frame
/// at the flush like everyone else. Loop-confined.
package final class SharedSceneFanOut {
    private struct Ahead {
        weak var client: SessionClient?
        /// How many of `pending` it has had.
        var count: Int
    }

    /// The scene as of the last flush.
    private var mirror: SharedSceneMirror
    /// The frame: every patch since the last flush, in the outbox's order.
    private var pending: [(patch: PatchMessage, json: [UInt8])] = []
    /// Clients that got part of the frame with their answers.
    private var ahead: [ObjectIdentifier: Ahead] = [:]

    package init(widgets: [WidgetSnapshot]) {
        mirror = SharedSceneMirror(widgets: widgets)
    }

    /// The scene as its viewers were last brought to.
    package var widgets: [WidgetSnapshot] { mirror.widgets }

    /// Whether a frame waits for ``flush(to:)``.
    package var hasPending: Bool { !pending.isEmpty }

    /// A scene from `widgets` is being served to `session`'s clients: they get the whole
    /// frame at the flush, whatever they had of it.
    package func serving(_ session: Session) {
        guard !ahead.isEmpty else { return }
        for client in session.clients { ahead[ObjectIdentifier(client)] = nil }
    }

    /// Starts again from `widgets` (everyone is sent a scene): the frame is dropped.
    package func reset(to widgets: [WidgetSnapshot]) {
        mirror = SharedSceneMirror(widgets: widgets)
        pending.removeAll()
        ahead.removeAll()
    }

    /// Adds `batch` to the frame and sends its answers now.
    package func deliver(_ batch: SharedScenePatchBatch) {
        let base = pending.count
        var senders: [ObjectIdentifier: SessionClient] = [:]
        for item in batch.items {
            if let patch = item.patch { pending.append((patch, item.patchJSON)) }
            if let sender = item.sender, item.answer != nil { senders[ObjectIdentifier(sender)] = sender }
        }
        for (key, sender) in senders {
            guard let session = sender.session else { continue }
            // What it has not had of the frame before this batch: others' patches.
            var between: [PatchMessage] = []
            let start = ahead[key].flatMap { $0.client === sender ? $0.count : nil } ?? 0
            if start < base { between = pending[start..<base].map(\.patch) }
            var index = base
            var count = start
            for item in batch.items {
                if item.patch != nil { index += 1 }
                if let own = item.sender, own === sender, let answer = item.answer {
                    // A failed binding still changed things: the sender sees them, then the error.
                    if case .error = answer, let patch = item.patch { between.append(patch) }
                    for patch in SharedScenePatchBatch.merge(between) {
                        session.broadcast(OutgoingMessage(.patch(patch))) { $0 === sender }
                    }
                    between.removeAll()
                    sender.send(item.answerJSON.map { OutgoingMessage(answer, utf8: $0) } ?? OutgoingMessage(answer))
                    count = index
                } else if let patch = item.patch {
                    between.append(patch)
                }
            }
            // The rest of the batch comes with the frame.
            ahead[key] = Ahead(client: sender, count: count)
        }
    }

    /// Sends the frame to `sessions`' clients: one merged patch, encoded once, to every
    /// client that had none of it; the rest to the few that got ahead.
    package func flush(to sessions: [Session]) {
        guard !pending.isEmpty else { return }
        let merged: [OutgoingMessage]
        if pending.count == 1 {
            merged = [OutgoingMessage(.patch(pending[0].patch), utf8: pending[0].json)]
        } else {
            merged = SharedScenePatchBatch.merge(pending.map(\.patch)).map { OutgoingMessage(.patch($0)) }
        }
        for message in merged {
            if case .patch(let patch) = message.message { mirror.apply(patch) }
        }
        let ahead = self.ahead.filter { $0.value.client != nil }
        for session in sessions {
            for message in merged {
                if ahead.isEmpty {
                    session.broadcast(message, except: nil)
                } else {
                    session.broadcast(message) { ahead[ObjectIdentifier($0)]?.client !== $0 }
                }
            }
        }
        for entry in ahead.values {
            guard let client = entry.client, let session = client.session, entry.count < pending.count else { continue }
            for patch in SharedScenePatchBatch.merge(pending[entry.count...].map(\.patch)) {
                session.broadcast(OutgoingMessage(.patch(patch))) { $0 === client }
            }
        }
        pending.removeAll(keepingCapacity: true)
        self.ahead.removeAll(keepingCapacity: true)
    }
}
