import Foundation
import RxCore
import RxTesting
import RxWidgets

/// What a scene under test gets from its host: the virtual-time scheduler to use for
/// timed work, and the live connection count (for shared scenes' "N online").
public struct SceneTestContext {
    /// The host's scheduler: give it to anything in the scene that waits.
    public let scheduler: TestScheduler
    /// The number of clients connected to this instance, current value first.
    public let viewerCount: Observable<Int>

    /// The scheduler's clock (virtual: start the scheduler at a chosen moment to fix it).
    public var now: Date { scheduler.now }
}

/// A scene instance as the test host needs it: the view controller (which owns the
/// bindings) and its widgets under their ids.
public struct SceneTestScene {
    /// The controller; its view is loaded by the host.
    public let controller: ViewController
    /// The widgets under their ids (unique, non-empty), in display order.
    public let widgets: [(id: String, widget: View)]

    /// A scene of `controller` showing `widgets`.
    public init(controller: ViewController, widgets: [(id: String, widget: View)]) {
        self.controller = controller
        self.widgets = widgets
    }
}

/// Why a scene could not be hosted.
public struct SceneTestError: Error, CustomStringConvertible {
    /// What went wrong.
    public let message: String

    /// An error saying `message`.
    public init(message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

/// One scene instance run in-process, with no sockets: the server's side of a session,
/// kept as small as the protocol rules need.
///
/// Connect one ``SceneTestClient`` for a per-connection scene, or several for a shared
/// scene (each sees the others' changes as pushed patches). Everything runs on the
/// calling thread, which acts as the main loop; time is virtual (``scheduler``).
public final class SceneTestHost {
    /// The virtual clock that the scene's timed work and the patch flushes run on.
    public let scheduler: TestScheduler

    private var controller: ViewController?
    private var tree: WidgetTree?
    private var clients: [SceneTestClient] = []
    private let viewerCount = BehaviorSubject<Int>(value: 0)
    /// Binding errors collected while the scene runs (reported as `binding-failed`).
    private var bindingErrors: [String] = []

    /// Builds a scene instance with `build`, loads its view and puts its widgets in a
    /// widget tree. With no `scheduler`, one starts at 0 without a processing delay (so
    /// a one-second wait ends exactly one second later).
    public init(scheduler: TestScheduler? = nil, build: (SceneTestContext) throws -> SceneTestScene) throws {
        let scheduler = scheduler ?? TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        self.scheduler = scheduler
        let scene = try build(SceneTestContext(scheduler: scheduler, viewerCount: viewerCount.asObservable()))
        // Load first: what viewDidLoad sets up is the initial state, not a change.
        scene.controller.loadViewIfNeeded()
        let tree = WidgetTree()
        for (id, widget) in scene.widgets {
            do {
                try tree.add(widget, id: id)
            } catch {
                throw SceneTestError(message: "cannot add widget '\(id)': \(error)")
            }
        }
        // As the server does: a change starts a batch, flushed at the end of this
        // "loop turn" (here: the next item at the current virtual time).
        tree.onChangesPending = { [weak self] in
            guard let self else { return }
            _ = self.scheduler.scheduleAbsoluteVirtual((), time: self.scheduler.clock) { [weak self] _ in
                self?.flush()
                return Disposables.create()
            }
        }
        self.controller = scene.controller
        self.tree = tree
    }

    /// The scene's view controller, as `type`, while the scene lives.
    public func controller<Controller: ViewController>(as type: Controller.Type) -> Controller? {
        controller as? Controller
    }

    /// Whether the scene was ended (``end()``).
    public var isEnded: Bool { controller == nil }

    /// Every widget as the server has it now (what a `scene` message would carry).
    public func snapshot() -> [SceneTestWidget] {
        tree?.snapshot().map { SceneTestWidget(id: $0.id, kind: $0.kind, props: $0.properties) } ?? []
    }

    /// Connects a new client (another viewer of a shared scene).
    public func connect() throws -> SceneTestClient {
        try SceneTestClient(host: self)
    }

    /// Connects `client`: the viewer count goes up (the resulting changes go to the
    /// clients already there) and the newcomer gets a snapshot that includes them.
    func attach(_ client: SceneTestClient) throws {
        guard !isEnded else { throw SceneTestError(message: "the scene has ended") }
        flush()
        viewerCount.onNext(clients.count + 1)
        flush()
        client.received(snapshot: snapshot())
        clients.append(client)
    }

    /// Ends the scene, as a session's expiry does: drops the controller and the tree,
    /// so the controller's `DisposeBag` disposes the bindings and `rx.deallocated` fires.
    public func end() {
        for client in clients { client.hostEnded() }
        clients = []
        tree?.onChangesPending = nil
        tree = nil
        controller = nil
    }

    // MARK: - Time

    /// Runs what is due in the next `ticks` of virtual time (a tick is one second with
    /// the default scheduler), then sends out any changes.
    public func advance(by ticks: TestTime) {
        advance(to: scheduler.clock + ticks)
    }

    /// Runs what is due up to virtual time `time`, then sends out any changes.
    public func advance(to time: TestTime) {
        collectingBindingErrors { scheduler.advanceTo(time) }
        flush()
    }

    /// Runs everything scheduled (however far in virtual time), then sends out changes.
    public func runUntilIdle() {
        collectingBindingErrors { scheduler.start() }
        flush()
    }

    /// Sends the changes nobody's event caused (timers, arrivals) to every client as one
    /// pushed patch without `ack`.
    public func flush() {
        guard let tree, tree.hasPendingChanges else { return }
        let changes = tree.takeChanges().map(SceneTestChange.init)
        guard !changes.isEmpty else { return }
        for client in clients {
            client.receive(SceneTestPatch(ack: nil, changes: changes))
        }
    }

    // MARK: - Events

    /// Handles `client`'s event and returns its answer; other clients get the changes
    /// as a pushed patch. Follows the protocol: the sender does not get its own value
    /// back unless it was changed (clamped); bad input is an error, and the scene goes on.
    func handle(event name: String, target: String, value: WidgetValue?, from sender: SceneTestClient) -> (SceneTestAnswer, sentValue: (prop: String, value: WidgetValue)?) {
        guard let tree else {
            return (.error(code: "session-ended", message: "the scene has ended"), nil)
        }
        // Anything still pending belongs to an earlier turn.
        flush()
        guard let widget = tree.widget(withID: target) else {
            return (.error(code: SceneTestErrorCode.unknownTarget, message: "no widget '\(target)' in this scene"), nil)
        }
        guard let control = widget as? Control else {
            return (.error(code: SceneTestErrorCode.unknownEvent, message: "\(widget.kind) '\(target)' sends no events"), nil)
        }
        guard let event = Control.Event(name: name) else {
            return (.error(code: SceneTestErrorCode.unknownEvent, message: "'\(name)' is not a control event"), nil)
        }

        var applied: WidgetValue?
        var inputError: WidgetInputError?
        let errorsBefore = bindingErrors.count
        collectingBindingErrors {
            do throws(WidgetInputError) {
                applied = try control.sendUserEvent(event, value: value)
            } catch {
                inputError = error
            }
        }
        if let inputError {
            let code = inputError.code == .unknownProperty ? SceneTestErrorCode.badValue : inputError.code.rawValue
            return (.error(code: code, message: inputError.message), nil)
        }

        let changes = tree.takeChanges().map(SceneTestChange.init)
        // What the client shows of its own input (before any clamp: the answer fixes that).
        let sent = value.flatMap { value in control.valueProperty.map { (prop: $0, value: value) } }
        if bindingErrors.count > errorsBefore {
            // The event's changes still happened: everyone (the sender too) gets them.
            if !changes.isEmpty {
                for client in clients { client.receive(SceneTestPatch(ack: nil, changes: changes)) }
            }
            let message = bindingErrors[errorsBefore...].joined(separator: "; ")
            return (.error(code: SceneTestErrorCode.bindingFailed, message: message), sent)
        }
        let own = changes.filter { change in
            // The sender's own value, unchanged: it already shows it (RxCocoa: no echo).
            !(change.target == target && change.prop == sent?.prop && change.value == value && applied == value)
        }
        if !changes.isEmpty {
            for client in clients where client !== sender {
                client.receive(SceneTestPatch(ack: nil, changes: changes))
            }
        }
        return (.patch(own), sent)
    }

    /// Removes `client`; the viewer count goes down.
    func disconnect(_ client: SceneTestClient) {
        guard let index = clients.firstIndex(where: { $0 === client }) else { return }
        clients.remove(at: index)
        flush()
        viewerCount.onNext(clients.count)
        flush()
    }

    /// Runs `body` with binding errors collected here instead of printed.
    private func collectingBindingErrors(_ body: () -> Void) {
        let previous = Hooks.bindingErrorHandler
        let box = ErrorBox()
        Hooks.bindingErrorHandler = { box.errors.append("\($0)") }
        body()
        Hooks.bindingErrorHandler = previous
        bindingErrors.append(contentsOf: box.errors)
    }
}

/// Collects binding errors for one run (a box, so the handler does not capture the host).
private final class ErrorBox {
    var errors: [String] = []
}

extension SceneTestChange {
    /// The wire form of a widget tree's change record.
    init(_ change: WidgetChange) {
        self.init(target: change.widgetID, prop: change.property, value: change.value)
    }
}
