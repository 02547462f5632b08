import Bindery
import RxCore
import RxTesting
import RxWidgets

/// A client of a Bindery scene run in-process, for tests — like Phoenix's LiveViewTest:
/// send control events as a browser would, then assert the answers, the patches and the
/// widgets as the client sees them, with virtual time. It goes through the server's own
/// sessions, so it gets exactly the messages a WebSocket client would.
///
/// ```swift
/// let registry = SceneRegistry()
/// registerDemoScenes(registry)
/// let client = try SceneTestClient(scene: "colors", registry: registry)
/// let answer = client.send(event: "valueChanged", to: "whiteSlider", value: 0.25)
/// XCTAssertEqual(answer.changeDescriptions, ["canvas.backgroundColor = #404040ff"])
/// XCTAssertEqual(client.widget("canvas")?.props["backgroundColor"], .color(Color(white: 0.25, alpha: 1)))
/// ```
public final class SceneTestClient {
    /// The in-process server (clock, sessions).
    public let server: SceneTestServer
    /// This client's session.
    public let session: Session
    /// The `scene` message the client started from.
    public private(set) var sceneMessage: SceneMessage
    /// Every message received, in order (patches, errors, `bye`, `scene` on resync).
    public private(set) var messages: [ServerMessage] = []
    /// The answer to each event sent, in order.
    public private(set) var answers: [SceneTestAnswer] = []

    private var connection: SessionClient?
    private var widgetList: [SceneTestWidget] = []
    private var widgetIndex: [String: Int] = [:]
    private var nextSeq = 1
    private var patchesTaken = 0

    /// Starts an in-process server for `registry` and connects to `scene`: the usual
    /// way to test a per-connection scene. `scheduler` is the virtual clock (see
    /// ``SceneTestServer/init(registry:scheduler:configuration:)``); `parameters` and
    /// `screenPath` are what a page URL would carry (`/scene/team?member=chen-wei#/chen-wei`).
    ///
    /// - Throws: ``SessionError`` (`.badParameter` for parameters the scene refuses).
    public convenience init(scene: String, registry: SceneRegistry, scheduler: TestScheduler? = nil,
                            parameters: [String: String] = [:], screenPath: [String] = []) throws {
        try self.init(server: SceneTestServer(registry: registry, scheduler: scheduler), scene: scene,
                      parameters: parameters, screenPath: screenPath)
    }

    /// Opens a session of `scene` on `server` and attaches to it.
    init(server: SceneTestServer, scene: String, parameters: [String: String] = [:], screenPath: [String] = []) throws {
        self.server = server
        session = try server.store.createSession(scene: scene, parameters: parameters, screenPath: screenPath)
        sceneMessage = session.sceneMessage(resumed: false)
        connection = nil
        // Attach, then the snapshot, as over a WebSocket: what the arrival changes (a
        // viewer count) is in this client's scene, and reaches the others as a patch.
        connection = session.connect { [weak self] message in self?.receive(message) }
        sceneMessage = session.sceneMessage(resumed: false)
        show(sceneMessage)
        server.flush()
    }

    /// The virtual clock.
    public var scheduler: TestScheduler { server.scheduler }

    /// Whether the client is attached (false after ``close()`` or once the session ended).
    public var isConnected: Bool { connection?.isConnected ?? false }

    /// The scene's view controller, as `type` (to look at a view model, say).
    public func controller<Controller: ViewController>(as type: Controller.Type) -> Controller? {
        session.controller as? Controller
    }

    // MARK: - Acting

    /// Sends `event` (a `Control.Event` name: `valueChanged`, `touchUpInside`,
    /// `editingChanged`, ...) to the widget `target`, with `value` for its value property,
    /// and returns the server's answer. On success the client's own view takes `value`
    /// at once, as a browser shows what the user did.
    @discardableResult
    public func send(event: String, to target: String, value: (any SceneTestValue)? = nil) -> SceneTestAnswer {
        sendEvent(event, to: target, value: value?.widgetValue)
    }

    /// Sends an event with any of the protocol's fields (rows, moves, alert actions), its
    /// `seq` the next one. See ``send(event:to:value:)``.
    func sendEvent(_ event: String, to target: String, value sent: WidgetValue?, row: String? = nil,
              toSection: String? = nil, toIndex: Int? = nil, action: Int? = nil) -> SceneTestAnswer {
        let seq = nextSeq
        nextSeq += 1
        // The browser shows the user's input before any answer; a clamp in the answer
        // then overrides it, and a refusal puts the old value back.
        let shown = sent.flatMap { showOwnInput($0, on: target) }
        let answer = answer(to: seq) {
            $0.receive(.event(EventMessage(seq: seq, target: target, event: event, value: sent, row: row,
                                           toSection: toSection, toIndex: toIndex, action: action)))
        }
        if let shown {
            if case .patch = answer { settleOwnInput(shown) } else { restore(shown) }
        }
        if case .patch = answer { showOwnFocus(event, on: target) }
        answers.append(answer)
        return answer
    }

    /// A browser's focus is its own (PROTOCOL.md, "Focus"): a text input it reported
    /// focusing is focused, and no other one; one it reported leaving is not.
    private func showOwnFocus(_ event: String, on target: String) {
        guard event == "editingDidBegin" || event == "editingDidEnd", widget(target)?.props["focused"] != nil else { return }
        let focusing = event == "editingDidBegin"
        for other in widgetList where other.props["focused"] != nil {
            let focused = focusing && other.id == target
            if other.id == target || focusing, other.props["focused"] != .bool(focused) {
                apply(PatchChange(target: other.id, prop: "focused", value: .bool(focused)))
            }
        }
    }

    /// A user's tap on a button (`touchUpInside`).
    @discardableResult
    public func tap(_ target: String) -> SceneTestAnswer {
        send(event: "touchUpInside", to: target)
    }

    /// A user's typing into a text field (`editingChanged` with the whole new text).
    @discardableResult
    public func type(_ text: String, into target: String) -> SceneTestAnswer {
        send(event: "editingChanged", to: target, value: text)
    }

    /// Sends raw JSON text, as a WebSocket client would, and returns the messages it
    /// brought (for malformed input: `bad-json`, `bad-message`, `unknown-type`).
    @discardableResult
    public func send(text: String) -> [ServerMessage] {
        let before = messages.count
        connection?.receive(text: text)
        return Array(messages[before...])
    }

    /// Runs what is due in the next `ticks` of virtual time; pushed patches arrive.
    public func advance(by ticks: TestTime) {
        server.advance(by: ticks)
    }

    /// Disconnects, as a closed tab does (the session's grace period starts).
    public func close() {
        connection?.disconnect()
    }

    // MARK: - Looking

    /// Every patch received: answers to this client's events (with `ack`) and pushed
    /// ones (without: timers, other clients).
    public var patches: [PatchMessage] {
        messages.compactMap { message in
            if case .patch(let patch) = message { return patch }
            return nil
        }
    }

    /// The patches received since the last call (for step-by-step asserts).
    public func takePatches() -> [PatchMessage] {
        let all = patches
        defer { patchesTaken = all.count }
        return Array(all[min(patchesTaken, all.count)...])
    }

    /// The widget `id` as this client sees it (the scene message plus every patch and
    /// the client's own input), or `nil` if the scene has none.
    public func widget(_ id: String) -> SceneTestWidget? {
        widgetIndex[id].map { widgetList[$0] }
    }

    /// Every widget as this client sees it, in the scene's order.
    public var widgets: [SceneTestWidget] { widgetList }

    /// The properties where this client's view differs from the server's widgets
    /// (`id.prop: client ≠ server`): empty when the patches told the client everything.
    public func divergence() -> [String] {
        var differences: [String] = []
        let snapshot = session.tree?.snapshot() ?? []
        let serverIDs = Set(snapshot.map(\.id))
        for mine in widgetList where !serverIDs.contains(mine.id) {
            differences.append("\(mine.id): shown ≠ not on the server")
        }
        for server in snapshot {
            guard let shown = widget(server.id) else {
                differences.append("\(server.id): missing ≠ on the server")
                continue
            }
            let mine = shown.props
            for name in Set(server.properties.keys).union(mine.keys).sorted() where mine[name] != server.properties[name] {
                let client = mine[name].map(\.description) ?? "missing"
                let truth = server.properties[name].map(\.description) ?? "missing"
                differences.append("\(server.id).\(name): \(client) ≠ \(truth)")
            }
        }
        return differences
    }

    // MARK: - Receiving

    /// Runs `body` on the connection and returns the message answering `seq`.
    private func answer(to seq: Int, _ body: (SessionClient) -> Void) -> SceneTestAnswer {
        guard let connection, connection.isConnected else { return .noAnswer }
        let before = messages.count
        body(connection)
        for message in messages[before...] where message.ack == seq {
            switch message {
            case .patch(let patch): return .patch(patch)
            case .error(let error): return .error(error)
            case .scene, .bye, .rows: continue
            }
        }
        return .noAnswer
    }

    private func receive(_ message: ServerMessage) {
        messages.append(message)
        switch message {
        case .patch(let patch):
            if !patch.removed.isEmpty || !patch.added.isEmpty {
                // A dismissed alert goes, a presented one (and its text fields) comes.
                widgetList.removeAll { patch.removed.contains($0.id) }
                widgetList.removeAll { widget in patch.added.contains { $0.id == widget.id } }
                widgetList += patch.added.map { SceneTestWidget(id: $0.id, kind: $0.kind, props: $0.properties) }
                widgetIndex = Dictionary(uniqueKeysWithValues: widgetList.enumerated().map { ($1.id, $0) })
            }
            for change in patch.changes { apply(change) }
        case .scene(let scene):
            sceneMessage = scene
            show(scene)
        case .error, .bye, .rows:
            break
        }
    }

    private func show(_ scene: SceneMessage) {
        widgetList = scene.widgets.map { SceneTestWidget(id: $0.id, kind: $0.kind, props: $0.properties) }
        widgetIndex = Dictionary(uniqueKeysWithValues: widgetList.enumerated().map { ($1.id, $0) })
    }

    private func apply(_ change: PatchChange) {
        guard let index = widgetIndex[change.target] else { return }
        switch change.update {
        case .value(let value):
            widgetList[index].props[change.prop] = value
        case .ops(let ops):
            var rows: [ListRow] = []
            if case .rows(let current) = widgetList[index].props[change.prop] { rows = current }
            widgetList[index].props[change.prop] = .rows(ListRow.applying(ops, to: rows))
        }
    }

    /// The client's own input on a widget: where it went, what it replaced, what was sent.
    private struct OwnInput {
        let index: Int
        let property: String
        let previous: WidgetValue?
        let sent: WidgetValue
    }

    /// Shows `sent` in `target`'s value property, as the browser does while the user acts.
    private func showOwnInput(_ sent: WidgetValue, on target: String) -> OwnInput? {
        guard let property = session.widget(withID: target)?.valueProperty,
              let index = widgetIndex[target] else { return nil }
        let input = OwnInput(index: index, property: property, previous: widgetList[index].props[property], sent: sent)
        widgetList[index].props[property] = sent
        return input
    }

    /// After a patch: when nothing overrode the input and the server holds the same
    /// value in its own form (an ISO date string is a date), show that form.
    private func settleOwnInput(_ input: OwnInput) {
        guard widgetList[input.index].props[input.property] == input.sent,
              let held = session.widget(withID: widgetList[input.index].id)?.snapshot()[input.property],
              PatchDiff.sameValue(sent: input.sent, applied: held) else { return }
        widgetList[input.index].props[input.property] = held
    }

    /// After an error: the input did not take.
    private func restore(_ input: OwnInput) {
        widgetList[input.index].props[input.property] = input.previous
    }
}
