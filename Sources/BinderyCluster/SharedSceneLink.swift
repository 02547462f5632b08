import BinderyProtocol
import BinderyRuntime
import Dispatch
import EventLoop
import Foundation
import RxWidgets

/// One shared scene's part in a ``SharedSceneCluster`` on this process.
///
/// Every process, the owner included, is an *edge*: it forwards its clients' events to
/// `scene:<name>:in` and serves its viewers from a mirror fed by `scene:<name>:out`
/// (answers go to the client that sent the event, patches to everyone else). One
/// process at a time is also the *owner*: it holds the lease, builds the scene (its
/// *engine*, a ``SceneHost`` of its own, restored from the snapshot), reads the inbox in
/// order (the total order), runs the events through it and commits each batch's outbox
/// entries (and, at most every `snapshotInterval`, the snapshot) in one fenced script.
/// Only the owner runs the scene: the store's host on every process is a shell whose
/// controller is released at once, so timers and `Action` work never run twice.
/// Loop-confined.
package final class SharedSceneLink {
    private struct Forwarded {
        weak var client: SessionClient?
        let sentAt: UInt64
        /// An HTTP request's answer (no client): called once, with the owner's answer or
        /// an error (store away, no answer in time).
        var reply: ((ServerMessage) -> Void)?
        var timer: LoopTimer?
    }

    let name: String
    /// The store's host: the sessions and their clients (its own scene is released).
    private weak var host: SceneHost?
    /// The scene as built, before anything happened: the mirror until a snapshot exists.
    private let initialWidgets: [WidgetSnapshot]
    /// The owner's running scene.
    private(set) var engine: SceneHost?
    unowned let cluster: SharedSceneCluster
    /// The lease, the streams and the snapshot (Redis, or in memory for tests).
    var streams: any SharedSceneStreams { cluster.streams }

    // Edge: the mirror (as its viewers have it, with the frame of patches they are owed)
    // and the forwarded events waiting for their answers.
    private(set) var fanOut: SharedSceneFanOut?
    private var mirrorVersion = 0
    private var frameTimer: LoopTimer?
    private var frameHook: EndOfTurnHook?
    private var lastFrameAt: UInt64 = 0
    /// How long the last frame took to send.
    private var lastFrameCost: UInt64 = 0
    /// The next frame waits at least this many times the last one's cost.
    static let frameCostShare: UInt64 = 6
    private(set) var lastOutID = "0-0"
    /// Scenes waiting for the mirror to reach the outbox's end (``whenCurrent(_:)``).
    var currentWaiters: [CurrentWaiter] = []
    private var outReader: (any SharedSceneStreamReader)?
    private var forwarded: [Int: Forwarded] = [:]
    private var nextForwardID = 1
    /// The answer slot of the HTTP event being handled (``answering(_:_:)``).
    private var pendingReply: ((ServerMessage) -> Void)?
    private var localViewers = 0
    private var ticker: LoopTimer?
    private var lastTickAt: UInt64 = 0
    /// Set when the timers ran late by more than a lease (the process was frozen), until
    /// Redis answers a command sent after that.
    private var isWaking = false
    private(set) var isStopped = false

    // Owner.
    private(set) var isOwner = false
    /// Set while the owner runs an event or a restore through the host, so the host
    /// applies it instead of forwarding it.
    private(set) var isApplying = false
    /// The full patch of the event being applied (what everyone but its sender gets).
    private var captured: PatchMessage?
    private var isReady = false
    private var epoch: Int64 = 0
    private var generation = 0
    private var inReader: (any SharedSceneStreamReader)?
    private var appliedInID = "0-0"
    private var committedInID = ""
    private var version = 0
    private var outbox: [SharedSceneOutboxRecord] = []
    private var counts: [String: (viewers: Int, seen: UInt64)] = [:]
    /// The newest inbox entry's time (Redis's clock, ms) this owner has read.
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

    init(host: SceneHost, cluster: SharedSceneCluster) {
        name = host.definition.name
        self.host = host
        self.cluster = cluster
        initialWidgets = host.tree.snapshot()
    }

    func start() {
        host?.dispose()  // only the owner's engine runs the scene
        outReader = streams.openReader(.outbox, scene: name, for: cluster.processID)
        loadMirror()
        let interval = cluster.configuration.refreshInterval
        ticker = cluster.loop.scheduleTimer(after: .milliseconds(1), repeating: interval) { [weak self] in self?.tick() }
    }

    func stop(releasing: Bool) {
        guard !isStopped else { return }
        if releasing {
            localViewers = 0  // its viewers move elsewhere: stop counting them now
            reportViewers()
        }
        isStopped = true
        ticker?.close()
        ticker = nil
        for (id, waiting) in forwarded where waiting.reply != nil {
            answerForwarded(id, .error(ErrorMessage(code: .storeUnavailable,
                                                    message: "the server is shutting down; the event may or may not have been applied")))
        }
        if isOwner { demote(reason: "stopped", release: releasing) }
        commitHook?.close()
        commitHook = nil
        frameTimer?.close()
        frameTimer = nil
        frameHook?.close()
        frameHook = nil
        outReader?.close()
        releaseCurrentWaiters(all: true)
        // The host stays linked: a shell with no scene of its own, refusing events.
    }

    // MARK: - Edge: events out, answers and patches in

    /// The widgets this process's viewers see, for a scene served to `session` (the
    /// scene as built until the mirror is loaded; its viewers then get the loaded one).
    /// Its clients then get the patches of the current frame with everybody else.
    package func mirrorWidgets(for session: Session?) -> [WidgetSnapshot] {
        guard let fanOut else { return initialWidgets }
        if let session { fanOut.serving(session) }
        return fanOut.widgets
    }

    /// Sends `event` to the owner; its answer comes back through the outbox.
    func forward(_ event: EventMessage, session: Session, client: SessionClient?) -> ServerMessage? {
        // A process that was frozen (SIGSTOP, a long pause) reads what its clients sent
        // meanwhile before its timers run: those clients may have given up and moved on,
        // so the events are refused until it has ticked again, not applied seconds late.
        // (Timers run before I/O in a loop turn, so a late tick alone is not enough.)
        if isWaking || (lastTickAt != 0 && Self.now() &- lastTickAt > Self.nanoseconds(cluster.configuration.leaseDuration)) {
            return .error(ErrorMessage(ack: event.seq, code: .storeUnavailable,
                                       message: "this process was paused; try again", target: event.target))
        }
        if isStopped {
            return .error(ErrorMessage(ack: event.seq, code: .storeUnavailable,
                                       message: "the server is shutting down; try again", target: event.target))
        }
        let id = nextForwardID
        nextForwardID += 1
        if let client {
            forwarded[id] = Forwarded(client: client, sentAt: Self.now())
        } else if let reply = pendingReply {
            pendingReply = nil
            let timeout = cluster.configuration.answerTimeout
            let timer = cluster.loop.scheduleTimer(after: timeout) { [weak self] in
                self?.answerForwarded(id, .error(ErrorMessage(
                    ack: event.seq, code: .storeUnavailable,
                    message: "the shared scene's owner did not answer within \(timeout); the event may or may not have been applied",
                    target: event.target)))
            }
            forwarded[id] = Forwarded(client: nil, sentAt: Self.now(), reply: reply, timer: timer)
        }
        streams.appendEvent(scene: name, origin: cluster.processID, forwardID: id, session: session.shortID,
                            event: MessageEncoder.encode(.event(event))) { [weak self] result in
            guard case .failure(let error) = result, let self, let waiting = self.forwarded[id] else { return }
            let refusal = ServerMessage.error(ErrorMessage(ack: event.seq, code: .storeUnavailable,
                                                           message: "the shared scene's store is unavailable (\(error)); try again",
                                                           target: event.target))
            if waiting.reply != nil { return self.answerForwarded(id, refusal) }
            self.forwarded[id] = nil
            waiting.client?.send(refusal)
        }
        return nil
    }

    /// Runs `body` (a session handling an HTTP event, no client) so that an event it
    /// forwards is answered through `reply` once the owner's answer comes back through
    /// the outbox (or with `store-unavailable` if Redis refuses it or no answer comes
    /// within ``SharedSceneCluster/Configuration/answerTimeout``), as a store-less server answers at once. An answer made
    /// here (refused before forwarding) goes to `reply` at once.
    package func answering(_ reply: @escaping (ServerMessage?) -> Void, _ body: () -> ServerMessage?) {
        pendingReply = { reply($0) }
        let answer = body()
        guard pendingReply != nil else { return }  // forwarded: answered later
        pendingReply = nil
        reply(answer)
    }

    /// Gives a waiting HTTP event its answer (once).
    private func answerForwarded(_ id: Int, _ answer: ServerMessage) {
        guard let waiting = forwarded.removeValue(forKey: id) else { return }
        waiting.timer?.close()
        waiting.reply?(answer)
    }

    /// This process's viewer count changed.
    func localViewersChanged(_ count: Int) {
        guard count != localViewers else { return }
        localViewers = count
        reportViewers()
    }

    private func reportViewers() {
        guard !isStopped else { return }
        streams.appendViewerCount(scene: name, origin: cluster.processID, count: localViewers) { [weak self] result in
            if case .success = result { self?.isWaking = false }
        }
    }

    /// Reads the snapshot into the mirror, then follows the outbox from there; viewers
    /// who were served before get the scene again. After a gap the snapshot must reach
    /// `version` (the entry before the first one left in the outbox): one that lags more
    /// (the owner writes it at most ``SharedSceneCluster/Configuration/snapshotInterval``
    /// after its entries) is read again a little later.
    private func loadMirror(reaching version: Int = 0) {
        streams.readSnapshot(scene: name) { [weak self] result in
            guard let self, !self.isStopped else { return }
            guard case .success(let snapshot) = result, snapshot.version >= version else {
                var retry = Duration.milliseconds(100)
                if case .success = result { retry = .milliseconds(20) }  // a lagging snapshot
                self.cluster.loop.scheduleTimer(after: retry) { [weak self] in self?.loadMirror(reaching: version) }
                return
            }
            if let json = snapshot.widgets, let widgets = try? MessageDecoder.decodeWidgets(json) {
                self.resetFanOut(to: widgets)
                self.mirrorVersion = snapshot.version
                self.lastOutID = snapshot.outboxID
            } else {
                // Never owned yet: every process starts from the scene as built.
                self.resetFanOut(to: self.initialWidgets)
                self.mirrorVersion = 0
                self.lastOutID = "0-0"
            }
            self.resyncLocalClients()
            self.releaseCurrentWaiters()
            self.readOutbox()
        }
    }

    private func readOutbox() {
        guard !isStopped, let outReader else { return }
        outReader.read(after: lastOutID, count: cluster.configuration.readBatch) { [weak self] result in
            guard let self, !self.isStopped else { return }
            switch result {
            case .success(let entries):
                if self.applyOutbox(entries) { self.readOutbox() }
                self.releaseCurrentWaiters()
            case .failure:
                self.cluster.loop.scheduleTimer(after: .milliseconds(50)) { [weak self] in self?.readOutbox() }
            }
        }
    }

    /// Hands outbox entries to the fan-out, the whole batch at once (answers now, patches
    /// in the next frame); false after a gap (what came before it is delivered, the
    /// mirror is reloaded from the snapshot, and reading resumes from there).
    private func applyOutbox(_ entries: [SharedSceneStreamEntry]) -> Bool {
        var batch = SharedScenePatchBatch()
        defer {
            if let fanOut, !batch.isEmpty {
                fanOut.deliver(batch)
                if fanOut.hasPending { scheduleFrame() }
            }
        }
        for fields in entries {
            let id = fields.id
            guard let entryVersion = Int(fields["v"] ?? "") else { continue }
            if entryVersion <= mirrorVersion {
                lastOutID = id
                continue
            }
            guard entryVersion == mirrorVersion + 1 else {
                cluster.log("shared scene '\(name)': outbox gap (\(mirrorVersion) then \(entryVersion)); reloading")
                loadMirror(reaching: entryVersion - 1)
                return false
            }
            lastOutID = id
            mirrorVersion = entryVersion
            let patchJSON = fields.bytes("p") ?? []
            var patch: PatchMessage?
            if !patchJSON.isEmpty, case .patch(let decoded)? = try? MessageDecoder.decodeServerMessage(utf8: patchJSON) {
                patch = decoded
            }
            var item = SharedScenePatchBatch.Item(patch: patch, patchJSON: patchJSON)
            if fields.field("o", is: cluster.processID), let forwardID = Int(fields["f"] ?? ""),
               let waiting = forwarded[forwardID] {
                let answerJSON = fields.bytes("a") ?? []
                let answer = try? MessageDecoder.decodeServerMessage(utf8: answerJSON)
                if waiting.reply != nil {
                    // An HTTP event: its answer is the response; the patch goes to every viewer here.
                    answerForwarded(forwardID, answer ?? .error(ErrorMessage(code: .badMessage,
                                                                             message: "the owner's answer could not be read")))
                } else {
                    forwarded[forwardID] = nil
                    item.sender = waiting.client
                    item.answer = answer
                    item.answerJSON = answer == nil ? nil : answerJSON
                }
            }
            batch.append(item)
        }
        return true
    }

    /// A fresh mirror: every viewer gets a scene from it, so the frame is dropped.
    private func resetFanOut(to widgets: [WidgetSnapshot]) {
        if let fanOut { fanOut.reset(to: widgets) } else { fanOut = SharedSceneFanOut(widgets: widgets) }
    }

    /// Sends the frame at once when the last one went out at least a frame ago (at the
    /// end of this loop turn, so the turn's batches go together), else when that is so.
    /// A frame that took long (many viewers, a busy machine) spaces the next ones out, so
    /// the fan-out takes at most about 1/``frameCostShare`` of the loop and the answers
    /// (and the outbox reads they wait for) are not starved.
    private func scheduleFrame() {
        guard frameTimer == nil, frameHook?.isScheduled != true, !isStopped else { return }
        let interval = max(Self.nanoseconds(cluster.configuration.viewerFrameInterval), Self.frameCostShare * lastFrameCost)
        let since = Self.now() &- lastFrameAt
        if since >= interval {
            if frameHook == nil {
                frameHook = EndOfTurnHook(loop: cluster.loop) { [weak self] in self?.sendFrame() }
            }
            frameHook?.schedule()
        } else {
            frameTimer = cluster.loop.scheduleTimer(after: .nanoseconds(Int64(interval - since))) { [weak self] in
                self?.frameTimer = nil
                self?.sendFrame()
            }
        }
    }

    func sendFrame() {
        guard let fanOut, let host, !isStopped else { return }
        lastFrameAt = Self.now()
        fanOut.flush(to: host.sessions)
        lastFrameCost = Self.now() &- lastFrameAt
    }

    private func resyncLocalClients() {
        guard let host else { return }
        for session in host.sessions {
            for client in session.clients { client.send(.scene(session.sceneMessage(resumed: true))) }
        }
    }

    // MARK: - Lease

    private func tick() {
        guard !isStopped else { return }
        let now = Self.now()
        if lastTickAt != 0, now &- lastTickAt > Self.nanoseconds(cluster.configuration.leaseDuration) {
            isWaking = true  // until the report below is answered
        }
        lastTickAt = now
        reportViewers()
        forwarded = forwarded.filter { $0.value.reply != nil || now &- $0.value.sentAt < 30_000_000_000 }
        if isOwner {
            // Stop before the lease can have run out, whatever Redis says later.
            let lease = Self.nanoseconds(cluster.configuration.leaseDuration)
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

    // MARK: - Owner

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
        host.route = self
        engine = host
        let now = Self.now()
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
                let seen = now &- Self.nanoseconds(cluster.configuration.viewerCountLifetime) / 2
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

    /// Puts the snapshot's control values back as user input (applied here, not forwarded).
    private func restoreControls(from widgets: [WidgetSnapshot], in host: SceneHost) {
        isApplying = true
        defer { isApplying = false }
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
                isApplying = true
                let answer = host.dispatch(event, session: nil, client: nil)
                isApplying = false
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
        let now = Self.now()
        let lifetime = Self.nanoseconds(cluster.configuration.viewerCountLifetime)
        counts[cluster.processID] = (localViewers, now)
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
        let now = Self.now()
        let interval = Self.nanoseconds(configuration.snapshotInterval)
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

    // MARK: - Helpers

    static func now() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }

    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let components = duration.components
        return UInt64(max(0, components.seconds)) * 1_000_000_000 + UInt64(max(0, components.attoseconds) / 1_000_000_000)
    }
}
