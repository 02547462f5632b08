import RxCore
import RxTesting
import RxWidgets

/// A client of a scene run in-process, for tests — like Phoenix's LiveViewTest: send
/// control events as a browser would, and assert the answers, the patches and the
/// widgets as the client sees them, with virtual time.
///
/// ```swift
/// let client = try SceneTestClient { context in
///     let controller = ColorsViewController()
///     return SceneTestScene(controller: controller, widgets: controller.sceneWidgets)
/// }
/// let answer = client.send(event: "valueChanged", to: "whiteSlider", value: 0.25)
/// XCTAssertEqual(answer.changeDescriptions, ["canvas.backgroundColor = #404040ff"])
/// XCTAssertEqual(client.widget("canvas")?.props["backgroundColor"], .color(Color(white: 0.25, alpha: 1)))
/// ```
/// Use it on one thread (the test's), which stands in for the main loop.
public final class SceneTestClient {
    /// The scene instance this client is connected to.
    public let host: SceneTestHost
    /// Every patch received, in order: answers to this client's events (with `ack`) and
    /// pushed ones (without).
    public private(set) var patches: [SceneTestPatch] = []
    /// The answer to each event sent, in order.
    public private(set) var answers: [SceneTestAnswer] = []
    /// Whether the client is still connected.
    public private(set) var isConnected = true

    private var widgetList: [SceneTestWidget] = []
    private var widgetIndex: [String: Int] = [:]
    private var nextSeq = 1

    /// Builds a scene instance with `build` and connects to it (a per-connection scene).
    /// `scheduler` is the virtual clock; by default one at 0 without a processing delay.
    public init(scheduler: TestScheduler? = nil, scene build: (SceneTestContext) throws -> SceneTestScene) throws {
        self.host = try SceneTestHost(scheduler: scheduler, build: build)
        try host.attach(self)
    }

    /// A client of `host` (see ``SceneTestHost/connect()``).
    init(host: SceneTestHost) throws {
        self.host = host
        try host.attach(self)
    }

    /// The scene's virtual clock.
    public var scheduler: TestScheduler { host.scheduler }

    // MARK: - Acting

    /// Sends `event` (a `Control.Event` name: `valueChanged`, `touchUpInside`,
    /// `editingChanged`, ...) to the widget `target`, with `value` applied to its value
    /// property first, as a browser does; returns the server's answer. The client's own
    /// view of the widget takes `value` at once (the browser shows what the user did).
    @discardableResult
    public func send(event: String, to target: String, value: (any SceneTestValue)? = nil) -> SceneTestAnswer {
        let seq = nextSeq
        nextSeq += 1
        guard isConnected else {
            let answer = SceneTestAnswer.error(code: "not-connected", message: "the client is closed")
            answers.append(answer)
            return answer
        }
        let (answer, sent) = host.handle(event: event, target: target, value: value?.widgetValue, from: self)
        if let sent { set(target, sent.prop, sent.value) }
        if case .patch(let changes) = answer {
            receive(SceneTestPatch(ack: seq, changes: changes))
        }
        answers.append(answer)
        return answer
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

    /// Runs what is due in the next `ticks` of virtual time (see
    /// ``SceneTestHost/advance(by:)``); pushed patches arrive meanwhile.
    public func advance(by ticks: TestTime) {
        host.advance(by: ticks)
    }

    /// Disconnects (the scene's viewer count goes down; a per-connection scene lives on
    /// in its host until ``SceneTestHost/end()``).
    public func close() {
        guard isConnected else { return }
        isConnected = false
        host.disconnect(self)
    }

    // MARK: - Looking

    /// The widget `id` as this client sees it, or `nil` if the scene has none.
    public func widget(_ id: String) -> SceneTestWidget? {
        widgetIndex[id].map { widgetList[$0] }
    }

    /// Every widget as this client sees it, in the scene's order.
    public var widgets: [SceneTestWidget] { widgetList }

    /// Returns the patches received since the last call (for step-by-step asserts).
    public func takePatches() -> [SceneTestPatch] {
        defer { patchesTaken = patches.count }
        return Array(patches[patchesTaken...])
    }

    private var patchesTaken = 0

    /// The properties where this client's view differs from the server's widgets, as
    /// `id.prop: client ≠ server` — empty when the patches told the client everything.
    public func divergence() -> [String] {
        var differences: [String] = []
        for server in host.snapshot() {
            let mine = widget(server.id)?.props ?? [:]
            for name in Set(server.props.keys).union(mine.keys).sorted() where mine[name] != server.props[name] {
                differences.append("\(server.id).\(name): \(mine[name].map(\.description) ?? "missing") ≠ \(server.props[name].map(\.description) ?? "missing")")
            }
        }
        return differences
    }

    // MARK: - From the host

    /// A patch arrives: record it and apply it to the client's view.
    func receive(_ patch: SceneTestPatch) {
        patches.append(patch)
        for change in patch.changes {
            set(change.target, change.prop, change.value)
        }
    }

    /// The `scene` message: the widgets as they are on connecting.
    func received(snapshot widgets: [SceneTestWidget]) {
        widgetList = widgets
        widgetIndex = Dictionary(uniqueKeysWithValues: widgets.enumerated().map { ($1.id, $0) })
    }

    /// The scene ended under the client.
    func hostEnded() {
        isConnected = false
    }

    private func set(_ id: String, _ prop: String, _ value: WidgetValue) {
        guard let index = widgetIndex[id] else { return }
        widgetList[index].props[prop] = value
    }
}
