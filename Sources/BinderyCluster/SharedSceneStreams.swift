import BinderyProtocol
import BinderyRuntime

/// The store behind a ``SharedSceneCluster``: per shared scene, an owner lease with a
/// fencing epoch, an inbox stream (events and viewer counts from every process), an outbox
/// stream (committed outcomes) and a snapshot, as typed operations.
///
/// ``RedisSharedSceneStreams`` keeps them in Redis (`scene:<name>:owner`, `:epoch`, `:in`,
/// `:out`, `:snap`); ``InMemorySharedSceneStreams`` keeps them in memory for several
/// members in one process (tests). Every completion runs later on the loop, never inside
/// the call, and completions run in the order their calls were made (as Redis's pipeline
/// answers them). Loop-confined.
package protocol SharedSceneStreams: AnyObject {
    /// Takes `scene`'s lease for `holder` for `duration` if nobody holds it, bumping the
    /// fencing epoch: the new epoch, or nil when someone else holds it.
    func acquireLease(scene: String, holder: String, duration: Duration,
                      _ done: @escaping (Result<Int64?, SharedSceneStreamError>) -> Void)
    /// Extends the lease for another `duration` if `holder` still holds it under `epoch`:
    /// false when it does not.
    func renewLease(scene: String, holder: String, epoch: Int64, duration: Duration,
                    _ done: @escaping (Result<Bool, SharedSceneStreamError>) -> Void)
    /// Gives the lease up if `holder` holds it (a clean stop); nobody waits for it.
    func releaseLease(scene: String, holder: String)

    /// Appends an event to the inbox, `origin` and `forwardID` naming who waits for its
    /// answer; `event` is the client's JSON (``SharedSceneWire``).
    func appendEvent(scene: String, origin: String, forwardID: Int, session: String, event: String,
                     _ done: @escaping (Result<Void, SharedSceneStreamError>) -> Void)
    /// Appends `origin`'s viewer count to the inbox.
    func appendViewerCount(scene: String, origin: String, count: Int,
                           _ done: @escaping (Result<Void, SharedSceneStreamError>) -> Void)

    /// The snapshot (``SharedSceneSnapshot/none`` before the first commit of a snapshot).
    func readSnapshot(scene: String, _ done: @escaping (Result<SharedSceneSnapshot, SharedSceneStreamError>) -> Void)
    /// Commits `batch` (its outbox entries, and its snapshot if it has one), all or
    /// nothing, if the epoch is still `batch.epoch`; else fails with
    /// ``SharedSceneStreamError/fenced(epoch:)``. Trims the inbox up to the last applied id.
    func commit(scene: String, _ batch: SharedSceneCommit, _ done: @escaping (Result<Void, SharedSceneStreamError>) -> Void)

    /// Up to `count` outbox entries after `id`, at once (none: empty).
    func readOutbox(scene: String, after id: String, count: Int,
                    _ done: @escaping (Result<[SharedSceneStreamEntry], SharedSceneStreamError>) -> Void)
    /// The newest outbox entry's id, nil for an empty outbox.
    func newestOutboxID(scene: String, _ done: @escaping (Result<String?, SharedSceneStreamError>) -> Void)
    /// A reader that waits for `stream`'s entries on behalf of `reader` (a process id), on
    /// a channel of its own so it holds up nothing else.
    func openReader(_ stream: SharedSceneStream, scene: String, for reader: String) -> any SharedSceneStreamReader

    /// This member is gone (a crash, a drill): whatever it has not sent is dropped. Streams
    /// shared by several members keep their state.
    func close()
}

/// A shared scene's two streams.
package enum SharedSceneStream: Sendable {
    /// `scene:<name>:in`: events and viewer counts, read by the owner.
    case inbox
    /// `scene:<name>:out`: committed outcomes, read by every edge.
    case outbox
}

/// Waits for a stream's entries (a blocking `XREAD` on its own connection). Loop-confined.
package protocol SharedSceneStreamReader: AnyObject {
    /// Up to `count` entries after `id`, as soon as there are some; empty after a while
    /// with none (about a second), so the caller reads again.
    func read(after id: String, count: Int,
              _ done: @escaping (Result<[SharedSceneStreamEntry], SharedSceneStreamError>) -> Void)
    /// Stops for good: a waiting read is never answered.
    func close()
}

/// Why a stream operation failed.
package enum SharedSceneStreamError: Error, CustomStringConvertible {
    /// The commit's epoch is stale: another owner took the scene.
    case fenced(epoch: Int64)
    /// The store could not be reached or answered an error; whether it ran is unknown.
    case unavailable(String)

    /// A short English description (the Redis error's own words for `unavailable`).
    package var description: String {
        switch self {
        case .fenced(let epoch): return "Redis error: FENCED epoch \(epoch) is stale"
        case .unavailable(let reason): return reason
        }
    }
}

/// A shared scene's snapshot: the state after a commit and where it stands in the streams.
package struct SharedSceneSnapshot: Equatable, Sendable {
    /// The epoch of the owner that wrote it (0: never written).
    package var epoch: Int64
    /// The last inbox entry applied in it.
    package var inboxID: String
    /// The outbox version it reaches.
    package var version: Int
    /// The widgets' JSON (``SharedSceneWire``); nil before the first snapshot.
    package var widgets: String?
    /// Viewer counts, `process=count` joined by `;`.
    package var counts: String
    /// The scene's own encoded state (``StateRestoring``), or "".
    package var state: String
    /// The outbox entry it reaches (the newest when it was written).
    package var outboxID: String

    /// Before the first commit: the scene as built.
    package static let none = SharedSceneSnapshot(epoch: 0, inboxID: "0-0", version: 0, widgets: nil, counts: "",
                                                  state: "", outboxID: "0-0")

    /// A snapshot from its parts.
    package init(epoch: Int64, inboxID: String, version: Int, widgets: String?, counts: String, state: String,
                 outboxID: String) {
        self.epoch = epoch
        self.inboxID = inboxID
        self.version = version
        self.widgets = widgets
        self.counts = counts
        self.state = state
        self.outboxID = outboxID
    }
}

/// One outbox entry as the owner commits it.
package struct SharedSceneOutboxRecord: Equatable, Sendable {
    /// One more than the entry before it.
    package var version: Int
    /// The process that forwarded the event ("" for changes no event caused).
    package var origin: String
    /// Its forward id there ("" for none).
    package var forwardID: String
    /// The answer's JSON for the sender ("" for none).
    package var answer: String
    /// The patch's JSON for everyone else ("" for none).
    package var patch: String

    /// An entry from its parts.
    package init(version: Int, origin: String, forwardID: String, answer: String, patch: String) {
        self.version = version
        self.origin = origin
        self.forwardID = forwardID
        self.answer = answer
        self.patch = patch
    }
}

/// One fenced commit: a batch's outbox entries and, when due, the snapshot after it.
package struct SharedSceneCommit: Sendable {
    /// What the commit writes besides the outbox entries.
    package struct Snapshot: Sendable {
        /// The widgets' JSON.
        package var widgets: String
        /// Viewer counts, `process=count` joined by `;`.
        package var counts: String
        /// The scene's own encoded state, or "".
        package var state: String

        /// A snapshot from its parts.
        package init(widgets: String, counts: String, state: String) {
            self.widgets = widgets
            self.counts = counts
            self.state = state
        }
    }

    /// The committing owner's epoch: refused unless it is still the current one.
    package var epoch: Int64
    /// The last inbox entry applied (on the batch's last entry, in the snapshot; the inbox
    /// is trimmed up to it).
    package var inboxID: String
    /// The version after the batch.
    package var version: Int
    /// The snapshot to write with the batch, if due.
    package var snapshot: Snapshot?
    /// The outbox entries, in order.
    package var entries: [SharedSceneOutboxRecord]

    /// A commit from its parts.
    package init(epoch: Int64, inboxID: String, version: Int, snapshot: Snapshot?, entries: [SharedSceneOutboxRecord]) {
        self.epoch = epoch
        self.inboxID = inboxID
        self.version = version
        self.snapshot = snapshot
        self.entries = entries
    }
}
