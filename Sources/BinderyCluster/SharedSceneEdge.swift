import BinderyProtocol
import BinderyRuntime
import EventLoop
import RxWidgets

/// The edge of one shared scene on this process (every process has one, the owner's
/// included): it forwards its clients' events to the inbox and serves its viewers from a
/// mirror fed by the outbox, answers to the client that sent the event, patches to
/// everyone else, in frames (``SharedSceneFanOut``). It also reports this process's viewer
/// count to the owner. It never runs the scene (``SharedSceneOwner`` does, on one
/// process). Loop-confined.
package final class SharedSceneEdge {
    /// An event sent to the owner, waiting for its answer.
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
    unowned let cluster: SharedSceneCluster
    /// The lease, the streams and the snapshot (Redis, or in memory for tests).
    var streams: any SharedSceneStreams { cluster.streams }

    // The mirror (as its viewers have it, with the frame of patches they are owed).
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

    // The forwarded events waiting for their answers.
    private var forwarded: [Int: Forwarded] = [:]
    private var nextForwardID = 1
    /// The answer slot of the HTTP event being handled (``answering(_:_:)``).
    private var pendingReply: ((ServerMessage) -> Void)?

    /// This process's viewers of the scene (what it reports; the owner sums every process's).
    private(set) var localViewers = 0
    private var lastTickAt: UInt64 = 0
    /// Set when the timers ran late by more than a lease (the process was frozen), until
    /// the store answers a command sent after that.
    private var isWaking = false
    private(set) var isStopped = false

    /// The edge of `host`'s scene (`initialWidgets`: the scene as built).
    init(name: String, host: SceneHost, initialWidgets: [WidgetSnapshot], cluster: SharedSceneCluster) {
        self.name = name
        self.host = host
        self.initialWidgets = initialWidgets
        self.cluster = cluster
    }

    /// Loads the mirror and follows the outbox.
    func start() {
        outReader = streams.openReader(.outbox, scene: name, for: cluster.processID)
        loadMirror()
    }

    /// The link's tick (every refresh interval): notices a frozen process, reports the
    /// viewer count, forgets forwards that will never be answered.
    func tick(now: UInt64) {
        guard !isStopped else { return }
        if lastTickAt != 0, now &- lastTickAt > SharedSceneTime.nanoseconds(cluster.configuration.leaseDuration) {
            isWaking = true  // until the report below is answered
        }
        lastTickAt = now
        reportViewers()
        forwarded = forwarded.filter { $0.value.reply != nil || now &- $0.value.sentAt < 30_000_000_000 }
    }

    /// Stops for good; with `releasing` (a drain) its viewers stop counting at once.
    func stop(releasing: Bool) {
        guard !isStopped else { return }
        if releasing {
            localViewers = 0  // its viewers move elsewhere: stop counting them now
            reportViewers()
        }
        isStopped = true
        for (id, waiting) in forwarded where waiting.reply != nil {
            answerForwarded(id, .error(ErrorMessage(code: .storeUnavailable,
                                                    message: "the server is shutting down; the event may or may not have been applied")))
        }
        frameTimer?.close()
        frameTimer = nil
        frameHook?.close()
        frameHook = nil
        outReader?.close()
        releaseCurrentWaiters(all: true)
    }

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
        if isWaking || (lastTickAt != 0 && SharedSceneTime.now() &- lastTickAt > SharedSceneTime.nanoseconds(cluster.configuration.leaseDuration)) {
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
            forwarded[id] = Forwarded(client: client, sentAt: SharedSceneTime.now())
        } else if let reply = pendingReply {
            pendingReply = nil
            let timeout = cluster.configuration.answerTimeout
            let timer = cluster.loop.scheduleTimer(after: timeout) { [weak self] in
                self?.answerForwarded(id, .error(ErrorMessage(
                    ack: event.seq, code: .storeUnavailable,
                    message: "the shared scene's owner did not answer within \(timeout); the event may or may not have been applied",
                    target: event.target)))
            }
            forwarded[id] = Forwarded(client: nil, sentAt: SharedSceneTime.now(), reply: reply, timer: timer)
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
        let interval = max(SharedSceneTime.nanoseconds(cluster.configuration.viewerFrameInterval), Self.frameCostShare * lastFrameCost)
        let since = SharedSceneTime.now() &- lastFrameAt
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
        lastFrameAt = SharedSceneTime.now()
        fanOut.flush(to: host.sessions)
        lastFrameCost = SharedSceneTime.now() &- lastFrameAt
    }

    private func resyncLocalClients() {
        guard let host else { return }
        for session in host.sessions {
            for client in session.clients { client.send(.scene(session.sceneMessage(resumed: true))) }
        }
    }
}
