import BinderyProtocol
import BinderyRuntime
import EventLoop
import RxWidgets

/// The owner side of one shared scene on this process: it takes the lease when it is
/// free (a fencing epoch with it), builds the scene (its *engine*, a ``SceneHost`` of its
/// own, restored from the snapshot and the outbox after it), reads the inbox in order
/// (the total order), runs the events through the engine and commits each batch's outbox
/// entries (and, at most every `snapshotInterval`, the snapshot) in one fenced commit.
/// Only one process at a time is the owner; the others' owners wait for the lease.
/// Loop-confined.
package final class SharedSceneOwner {
    let name: String
    /// The store's host: the engine is built as its sibling.
    private weak var host: SceneHost?
    /// The scene as built, before anything happened.
    private let initialWidgets: [WidgetSnapshot]
    unowned let cluster: SharedSceneCluster
    /// The lease, the streams and the snapshot (Redis, or in memory for tests).
    var streams: any SharedSceneStreams { cluster.streams }
    /// The engine's route: the link, which hands the engine's patches back here.
    weak var route: (any SceneRoute)?
    /// This process's viewer count (the edge's), counted with the other processes'.
    private let localViewers: () -> Int

    /// The running scene, while this process owns it.
    private(set) var engine: SceneHost?
    private(set) var isOwner = false
    /// The full patch of the event being applied (what everyone but its sender gets).
    private var captured: PatchMessage?
    private var isReady = false
    private var epoch: Int64 = 0
    /// Bumped on every change of ownership, so late completions of an older one are ignored.
    private var generation = 0
    private var inReader: (any SharedSceneStreamReader)?
    private var appliedInID = "0-0"
    private var committedInID = ""
    private var version = 0
    private var outbox: [SharedSceneOutboxRecord] = []
    private var counts: [String: (viewers: Int, seen: UInt64)] = [:]
    /// The newest inbox entry's time (the store's clock, ms) this owner has read.
    var newestInboxMilliseconds: UInt64 = 0
    private var leaseSentAt: UInt64 = 0
    private var isAcquiring = false
    private var commitHook: EndOfTurnHook?
    /// When the snapshot was last written, and how many outbox entries were committed
    /// since (the tail a new owner applies on top of it).
    private var lastSnapshotAt: UInt64 = 0
    private var entriesSinceSnapshot = 0
    /// Set until the first commit of an ownership, which always writes the snapshot.
    private var isSnapshotOwed = true
    /// Writes the snapshot when the tail behind it has waited `snapshotInterval`.
    private var snapshotTimer: LoopTimer?
    private var isStopped = false

    /// The owner side of `host`'s scene (`initialWidgets`: the scene as built).
    init(name: String, host: SceneHost, initialWidgets: [WidgetSnapshot], cluster: SharedSceneCluster,
         localViewers: @escaping () -> Int) {
        self.name = name
        self.host = host
        self.initialWidgets = initialWidgets
        self.cluster = cluster
        self.localViewers = localViewers
    }

    /// The link's tick (every refresh interval): refreshes the lease (stepping down
    /// before it can have run out), or tries to take it.
    func tick(now: UInt64) {
        guard !isStopped else { return }
        if isOwner {
            // Stop before the lease can have run out, whatever the store says later.
            let lease = SharedSceneTime.nanoseconds(cluster.configuration.leaseDuration)
            if now &- leaseSentAt > lease - lease / 4 {
                demote(reason: "lease not refreshed in time", release: false)
                return
            }
            let sentAt = now
            let generation = self.generation
            streams.renewLease(scene: name, holder: cluster.processID, epoch: epoch,
                               duration: cluster.configuration.leaseDuration) { [weak self] result in
                guard let self, self.isOwner, generation == self.generation else { return }
                switch result {
                case .success(true): self.leaseSentAt = sentAt
                case .success(false): self.demote(reason: "lease taken by another process", release: false)
                case .failure: break  // retried next tick; the deadline above stops us in time
                }
            }
            if isReady { recount() }
        } else if !isAcquiring {
            isAcquiring = true
            let sentAt = now
            streams.acquireLease(scene: name, holder: cluster.processID,
                                 duration: cluster.configuration.leaseDuration) { [weak self] result in
                guard let self else { return }
                self.isAcquiring = false
                if !self.isStopped, !self.isOwner, case .success(let epoch?) = result {
                    self.takeOver(epoch: epoch, leaseSentAt: sentAt)
                }
            }
        }
    }

    /// Stops for good: steps down if it owns the scene (giving the lease up with
    /// `releasing`, else letting it run out as after a crash).
    func stop(releasing: Bool) {
        guard !isStopped else { return }
        isStopped = true
        if isOwner { demote(reason: "stopped", release: releasing) }
        commitHook?.close()
        commitHook = nil
    }

    /// Became owner under `epoch`: restore the scene from the snapshot, publish what
    /// differs, then read the inbox from the snapshot's position.
    private func takeOver(epoch: Int64, leaseSentAt: UInt64) {
        isOwner = true
        isReady = false
        generation += 1
        self.epoch = epoch
        self.leaseSentAt = leaseSentAt
        let generation = self.generation
        cluster.log("shared scene '\(name)': owner now (epoch \(epoch))")
        streams.readSnapshot(scene: name) { [weak self] result in
            guard let self, self.isOwner, generation == self.generation else { return }
            guard case .success(let snapshot) = result else {
                self.demote(reason: "could not read the snapshot", release: true)
                return
            }
            guard snapshot.widgets != nil else { return self.restore(snapshot, tail: []) }
            self.readTail(after: snapshot.outboxID, generation: generation, into: []) { [weak self] tail in
                self?.restore(snapshot, tail: tail)
            }
        }
    }

    /// Reads the outbox entries after `id` (the snapshot's): what was committed after it.
    private func readTail(after id: String, generation: Int, into tail: [SharedSceneStreamEntry],
                          _ body: @escaping ([SharedSceneStreamEntry]) -> Void) {
        streams.readOutbox(scene: name, after: id, count: cluster.configuration.readBatch) { [weak self] result in
            guard let self, self.isOwner, generation == self.generation else { return }
            guard case .success(let entries) = result else {
                return self.demote(reason: "could not read the outbox after the snapshot", release: true)
            }
            guard let last = entries.last else { return body(tail) }
            self.readTail(after: last.id, generation: generation, into: tail + entries, body)
        }
    }

    /// The snapshot's widgets with the outbox entries after it applied (their versions
    /// must follow the snapshot's without a gap), the version and the last applied inbox id
    /// they reach; nil after a gap.
    static func replay(_ tail: [SharedSceneStreamEntry], onto widgets: [WidgetSnapshot], version: Int,
                       inboxID: String) -> (widgets: [WidgetSnapshot], version: Int, inboxID: String)? {
        var mirror = SharedSceneMirror(widgets: widgets)
        var version = version
        var inboxID = inboxID
        for entry in tail {
            guard let entryVersion = Int(entry["v"] ?? "") else { continue }
            if entryVersion <= version { continue }
            guard entryVersion == version + 1 else { return nil }
            version = entryVersion
            if let json = entry["p"], !json.isEmpty, case .patch(let patch)? = try? MessageDecoder.decodeServerMessage(json) {
                mirror.apply(patch)
            }
            if let id = entry["i"] { inboxID = id }
        }
        return (mirror.widgets, version, inboxID)
    }

    private func restore(_ snapshot: SharedSceneSnapshot, tail: [SharedSceneStreamEntry]) {
        guard let shell = host else { return }
        let host: SceneHost
        do throws(ProtocolError) {
            host = try shell.makeSibling()
        } catch {
            demote(reason: "the scene could not be built: \(error.message)", release: true)
            return
        }
        // The link: it hands the engine's patches back here (``capture(_:from:)``, ``flushed(_:from:)``).
        host.route = route ?? LocalSceneRoute.shared
        engine = host
        let now = SharedSceneTime.now()
        var base = initialWidgets
        if let json = snapshot.widgets, let widgets = try? MessageDecoder.decodeWidgets(json) {
            guard let replayed = Self.replay(tail, onto: widgets, version: snapshot.version,
                                             inboxID: snapshot.inboxID) else {
                // Cannot happen while the snapshot is written every outboxMaxLength / 4 entries.
                demote(reason: "the outbox after the snapshot has a gap", release: true)
                return
            }
            let widgets = replayed.widgets
            base = widgets
            restoreControls(from: widgets, in: host)
            // A scene that keeps state beyond its controls' values encodes it itself.
            if !snapshot.state.isEmpty, let coder = StateCoder(json: snapshot.state),
               let restoring = host.controller as? StateRestoring {
                restoring.decodeRestorableState(with: coder)
            }
            version = replayed.version
            appliedInID = replayed.inboxID
            counts = [:]
            for pair in snapshot.counts.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                // Half a lifetime left: live processes report again well before that.
                let seen = now &- SharedSceneTime.nanoseconds(cluster.configuration.viewerCountLifetime) / 2
                if parts.count == 2, let viewers = Int(parts[1]) { counts[String(parts[0])] = (viewers, seen) }
            }
        } else {
            version = 0
            appliedInID = "0-0"
        }
        committedInID = ""
        isSnapshotOwed = true
        entriesSinceSnapshot = 0
        isReady = true
        recount()
        var dropped = host.tree.takeChanges()
        _ = host.takePresentationChanges(filtering: &dropped)
        // One entry whatever the difference, so the snapshot exists from now on.
        let sync = SharedSceneMirror(widgets: base).patch(to: host.tree.snapshot())
        let empty = sync.changes.isEmpty && sync.added.isEmpty && sync.removed.isEmpty
        append(origin: "", forwardID: "", answer: "", patch: empty ? "" : MessageEncoder.encode(.patch(sync)))
        inReader = streams.openReader(.inbox, scene: name, for: cluster.processID)
        readInbox(generation: generation)
    }

    /// Puts the snapshot's control values back as user input, on the engine itself.
    private func restoreControls(from widgets: [WidgetSnapshot], in host: SceneHost) {
        host.restoreControlValues(from: widgets)
    }

    private func readInbox(generation: Int) {
        guard isOwner, generation == self.generation, let inReader else { return }
        inReader.read(after: appliedInID, count: cluster.configuration.readBatch) { [weak self] result in
            guard let self, self.isOwner, generation == self.generation else { return }
            switch result {
            case .success(let entries):
                self.applyInbox(entries)
                self.readInbox(generation: generation)
            case .failure:
                self.cluster.loop.scheduleTimer(after: .milliseconds(50)) { [weak self] in
                    self?.readInbox(generation: generation)
                }
            }
        }
    }

    /// Runs a batch of inbox entries in order and queues their outbox entries.
    private func applyInbox(_ entries: [SharedSceneStreamEntry]) {
        guard let host = engine, !entries.isEmpty else { return }
        var countsChanged = false
        for fields in entries {
            appliedInID = fields.id
            let origin = fields["o"] ?? ""
            switch fields["k"] {
            case "c":
                // The batch's newest entry first, so the older ones are aged against it
                // (a stream id is parsed only for batches with counts).
                if !countsChanged, let newest = entries.last { noteNewestInboxEntry(newest.id) }
                counts[origin] = (Int(fields["n"] ?? "") ?? 0, reportedAt(fields.id))
                countsChanged = true
            case "e":
                let forwardID = fields["f"] ?? ""
                guard let event = try? SharedSceneWire.decodeEvent(fields["m"] ?? "") else {
                    let error = ErrorMessage(code: .badMessage, message: "the shared scene could not read this event")
                    append(origin: origin, forwardID: forwardID, answer: MessageEncoder.encode(.error(error)), patch: "")
                    continue
                }
                captured = nil
                let answer = host.dispatch(event, session: nil, client: nil)
                let patch = captured.map { MessageEncoder.encode(.patch($0)) } ?? ""
                captured = nil
                append(origin: origin, forwardID: forwardID, answer: MessageEncoder.encode(answer), patch: patch)
            default:
                continue
            }
        }
        if countsChanged { recount() }
        if host.tree.hasPendingChanges { host.flush() }
        scheduleCommit()
    }

    /// The engine's full patch for the event being applied.
    func capture(_ patch: PatchMessage, from host: SceneHost) {
        if host === engine { captured = patch }
    }

    /// Changes no event caused (timers, viewer counts): the owner's engine publishes
    /// them.
    func flushed(_ patch: PatchMessage, from host: SceneHost) {
        guard isOwner, isReady, host === engine else { return }
        append(origin: "", forwardID: "", answer: "", patch: MessageEncoder.encode(.patch(patch)))
        scheduleCommit()
    }

    private func recount() {
        let now = SharedSceneTime.now()
        let lifetime = SharedSceneTime.nanoseconds(cluster.configuration.viewerCountLifetime)
        counts[cluster.processID] = (localViewers(), now)
        counts = counts.filter { now &- $0.value.seen < lifetime }
        engine?.context.setViewerCount(counts.values.reduce(0) { $0 + $1.viewers })
    }

    private func append(origin: String, forwardID: String, answer: String, patch: String) {
        version += 1
        outbox.append(SharedSceneOutboxRecord(version: version, origin: origin, forwardID: forwardID, answer: answer,
                                              patch: patch))
    }

    private func scheduleCommit() {
        if commitHook == nil {
            commitHook = EndOfTurnHook(loop: cluster.loop) { [weak self] in self?.commit() }
        }
        commitHook?.schedule()
    }

    /// One fenced script per loop turn: the outbox entries, and the snapshot when it is
    /// due (``SharedSceneCluster/Configuration/snapshotInterval``), together.
    private func commit(snapshotting force: Bool = false) {
        guard isOwner, isReady, let host = engine else { return }
        let entries = outbox.count
        guard entries > 0 || appliedInID != committedInID || (force && entriesSinceSnapshot > 0) else { return }
        let configuration = cluster.configuration
        let now = SharedSceneTime.now()
        let interval = SharedSceneTime.nanoseconds(configuration.snapshotInterval)
        let restoring = host.controller as? StateRestoring
        // A scene's own encoded state cannot be rebuilt from patches: snapshot every commit.
        let snapshotting = force || isSnapshotOwed || restoring != nil || now &- lastSnapshotAt >= interval
            || entriesSinceSnapshot + entries >= max(1, configuration.outboxMaxLength / 4)
        var snapshot: SharedSceneCommit.Snapshot?
        if snapshotting {
            var state = ""
            if let restoring {
                let coder = StateCoder()
                restoring.encodeRestorableState(with: coder)
                state = coder.json
            }
            let countsText = counts.map { "\($0.key)=\($0.value.viewers)" }.joined(separator: ";")
            snapshot = SharedSceneCommit.Snapshot(widgets: MessageEncoder.encodeWidgets(host.tree.snapshot()),
                                                  counts: countsText, state: state)
            lastSnapshotAt = now
            entriesSinceSnapshot = 0
            isSnapshotOwed = false
            snapshotTimer?.close()
            snapshotTimer = nil
        } else {
            entriesSinceSnapshot += entries
            if entriesSinceSnapshot > 0, snapshotTimer == nil {
                // The tail is not left behind the snapshot longer than the interval, even
                // when no further commit comes.
                let generation = self.generation
                let wait = interval &- min(interval, now &- lastSnapshotAt)
                snapshotTimer = cluster.loop.scheduleTimer(after: .nanoseconds(Int64(wait))) { [weak self] in
                    guard let self, generation == self.generation else { return }
                    self.snapshotTimer = nil
                    self.commit(snapshotting: true)
                }
            }
        }
        let batch = SharedSceneCommit(epoch: epoch, inboxID: appliedInID, version: version, snapshot: snapshot,
                                      entries: outbox)
        outbox.removeAll(keepingCapacity: true)
        committedInID = appliedInID
        let generation = self.generation
        streams.commit(scene: name, batch) { [weak self] result in
            guard let self, case .failure(let error) = result, self.isOwner, generation == self.generation else { return }
            // What was applied and not committed must not be served: start again from
            // the snapshot (here or on another process).
            self.demote(reason: "commit failed: \(error)", release: true)
        }
    }

    private func demote(reason: String, release: Bool) {
        guard isOwner else { return }
        cluster.log("shared scene '\(name)': no longer owner (\(reason))")
        isOwner = false
        isReady = false
        generation += 1
        outbox.removeAll()
        snapshotTimer?.close()
        snapshotTimer = nil
        counts = [:]
        newestInboxMilliseconds = 0
        inReader?.close()
        inReader = nil
        // What it applied past the last commit must not survive: the next takeover
        // builds the scene afresh from the snapshot.
        engine?.route = LocalSceneRoute.shared
        engine?.dispose()
        engine = nil
        if release {
            streams.releaseLease(scene: name, holder: cluster.processID)
        }
    }
}
