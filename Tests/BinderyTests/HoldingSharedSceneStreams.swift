@testable import Bindery
import EventLoop

/// Streams that pass everything to `base` but can hold this member's outbox reads back,
/// so it falls behind the outbox (then catches up): how a real-Redis test makes a lagging
/// process. Loop-confined.
final class HoldingSharedSceneStreams: SharedSceneStreams {
    let base: any SharedSceneStreams
    private var isHeld = false
    private var readers: [HeldReader] = []

    init(_ base: any SharedSceneStreams) {
        self.base = base
    }

    /// Holds the outbox reads back (true) or lets the held ones go on (false).
    func holdOutbox(_ held: Bool) {
        isHeld = held
        guard !held else { return }
        for reader in readers { reader.resume() }
    }

    /// An outbox reader whose reads wait while the outbox is held.
    private final class HeldReader: SharedSceneStreamReader {
        let base: any SharedSceneStreamReader
        unowned let owner: HoldingSharedSceneStreams
        var waiting: (id: String, count: Int, done: (Result<[SharedSceneStreamEntry], SharedSceneStreamError>) -> Void)?
        var isClosed = false

        init(base: any SharedSceneStreamReader, owner: HoldingSharedSceneStreams) {
            self.base = base
            self.owner = owner
        }

        func read(after id: String, count: Int,
                  _ done: @escaping (Result<[SharedSceneStreamEntry], SharedSceneStreamError>) -> Void) {
            guard !isClosed else { return }
            // What comes back while held waits too (a read sent before the hold).
            let held: (Result<[SharedSceneStreamEntry], SharedSceneStreamError>) -> Void = { [weak self] result in
                guard let self, !self.isClosed else { return }
                if self.owner.isHeld { self.waiting = (id, count, done) } else { done(result) }
            }
            if owner.isHeld { waiting = (id, count, done) } else { base.read(after: id, count: count, held) }
        }

        func resume() {
            guard let waiting, !isClosed else { return }
            self.waiting = nil
            read(after: waiting.id, count: waiting.count, waiting.done)
        }

        func close() {
            isClosed = true
            waiting = nil
            base.close()
        }
    }

    func openReader(_ stream: SharedSceneStream, scene: String, for reader: String) -> any SharedSceneStreamReader {
        let opened = base.openReader(stream, scene: scene, for: reader)
        guard stream == .outbox else { return opened }
        let held = HeldReader(base: opened, owner: self)
        readers.append(held)
        return held
    }

    func acquireLease(scene: String, holder: String, duration: Duration,
                      _ done: @escaping (Result<Int64?, SharedSceneStreamError>) -> Void) {
        base.acquireLease(scene: scene, holder: holder, duration: duration, done)
    }

    func renewLease(scene: String, holder: String, epoch: Int64, duration: Duration,
                    _ done: @escaping (Result<Bool, SharedSceneStreamError>) -> Void) {
        base.renewLease(scene: scene, holder: holder, epoch: epoch, duration: duration, done)
    }

    func releaseLease(scene: String, holder: String) {
        base.releaseLease(scene: scene, holder: holder)
    }

    func appendEvent(scene: String, origin: String, forwardID: Int, session: String, event: String,
                     _ done: @escaping (Result<Void, SharedSceneStreamError>) -> Void) {
        base.appendEvent(scene: scene, origin: origin, forwardID: forwardID, session: session, event: event, done)
    }

    func appendViewerCount(scene: String, origin: String, count: Int,
                           _ done: @escaping (Result<Void, SharedSceneStreamError>) -> Void) {
        base.appendViewerCount(scene: scene, origin: origin, count: count, done)
    }

    func readSnapshot(scene: String, _ done: @escaping (Result<SharedSceneSnapshot, SharedSceneStreamError>) -> Void) {
        base.readSnapshot(scene: scene, done)
    }

    func commit(scene: String, _ batch: SharedSceneCommit, _ done: @escaping (Result<Void, SharedSceneStreamError>) -> Void) {
        base.commit(scene: scene, batch, done)
    }

    func readOutbox(scene: String, after id: String, count: Int,
                    _ done: @escaping (Result<[SharedSceneStreamEntry], SharedSceneStreamError>) -> Void) {
        base.readOutbox(scene: scene, after: id, count: count, done)
    }

    func newestOutboxID(scene: String, _ done: @escaping (Result<String?, SharedSceneStreamError>) -> Void) {
        base.newestOutboxID(scene: scene, done)
    }

    func close() {
        base.close()
    }
}

extension SharedSceneCluster {
    /// Holds this member's outbox reads back (true) or lets them catch up (false); the
    /// member must have been made on ``HoldingSharedSceneStreams``.
    func holdOutbox(_ held: Bool) {
        guard let streams = streams as? HoldingSharedSceneStreams else { preconditionFailure("not on holding streams") }
        streams.holdOutbox(held)
    }

    /// A member like this one (same Redis, loop, id and configuration) whose outbox reads
    /// can be held back; this one is abandoned. For an app's member, before its first session.
    func holdable() -> SharedSceneCluster {
        abandon()
        let streams = HoldingSharedSceneStreams(RedisSharedSceneStreams(endpoint: endpoint, loop: loop, configuration: configuration))
        let cluster = SharedSceneCluster(streams: streams, loop: loop, processID: processID, configuration: configuration)
        cluster.logger = logger
        return cluster
    }
}
