import BinderyProtocol
import Foundation
import RxCore
import RxWidgets

/// One live instance of a scene: its view controller, widget tree and context, and the
/// sessions watching it (one for a per-connection scene, any number for a shared one).
///
/// It turns widget changes into patches: changes an event causes are taken right after
/// the event and become its answer (and a plain patch for everyone else); other changes
/// (timers, async work) are coalesced and flushed once per loop turn through the flush
/// scheduler. Loop-confined.
package final class SceneHost: PresentationHost, LifetimeAnchored {
    package let definition: SceneDefinition
    package let context: SceneContext
    package private(set) var controller: ViewController?
    package let tree: WidgetTree
    let layout: SceneLayout?
    private let flushScheduler: ImmediateSchedulerType
    private let hooks: SessionHooks
    /// The store's counters (a session reads them through its host on every event, not
    /// through its weak reference to the store).
    var metrics: Metrics { hooks.metrics }

    package private(set) var sessions: [Session] = []
    private var flushScheduled = false
    private var changesBuffer: [WidgetChange] = []
    private var isDispatching = false
    /// Presented alerts: the stack and the widgets added or removed since the last patch.
    var presentation = ScenePresentation()
    /// Where events run and patches go: ``LocalSceneRoute`` unless a layer above gave
    /// another (a shared scene that spans processes).
    package var route: SceneRoute = LocalSceneRoute.shared

    init(definition: SceneDefinition, scheduler: SchedulerType, flushScheduler: ImmediateSchedulerType,
         hooks: SessionHooks, parameters: [String: String] = [:], screenPath: [String] = []) throws(ProtocolError) {
        self.definition = definition
        self.flushScheduler = flushScheduler
        self.hooks = hooks
        context = SceneContext(sceneName: definition.name, scheduler: scheduler, parameters: parameters, screenPath: screenPath)
        let controller: ViewController
        do {
            controller = try definition.make(context)
        } catch let error as SceneParameterError {
            throw ProtocolError(.badParameter, "\(error)")
        } catch {
            throw ProtocolError(.bindingFailed, "scene '\(definition.name)' could not be built: \(error)")
        }
        controller.loadViewIfNeeded()
        Self.restoreScreens(of: controller, path: screenPath)
        let widgets: [(id: String, widget: View)]
        if let scene = controller as? any Scene {
            widgets = scene.sceneWidgets
            layout = scene.sceneLayout
        } else if let navigation = controller as? NavigationController {
            widgets = [("navigation", navigation.navigationView)]  // its screens' widgets follow
            layout = nil
        } else if let root = controller.view, !root.subviews.isEmpty {
            // Built in code: the page is the tree under the root view.
            widgets = [(root.id.isEmpty ? "view" : root.id, root)]
            layout = nil
        } else {
            widgets = SceneWidgets.discover(in: controller)
            layout = nil
        }
        tree = WidgetTree()
        self.controller = controller
        // Views in the hierarchy are named after the controller's properties that hold them.
        tree.hierarchyHost = self
        for (id, widget) in widgets {
            if !widget.id.isEmpty, tree.widget(withID: widget.id) === widget { continue }  // a subview of one listed before
            do {
                try tree.add(widget, id: id)
            } catch {
                throw ProtocolError(.bindingFailed, "scene '\(definition.name)': \(error)")
            }
        }
        presentation.added = []  // the first scene shows them all
        addGestureRecognizers(of: tree.widgets)
        // Unowned: the tree is the host's, and `deinit` takes the closure back should the
        // tree outlive it. A weak capture would give the host a side table, and every
        // retain and release of it on the event path the slow path.
        tree.onChangesPending = { [unowned(unsafe) self] in self.changesPending() }
        setUpPresentation(for: controller)
        setUpNavigation(for: controller)
    }

    deinit {
        storedAnchor?.end()
        tree.onChangesPending = nil
        tree.hierarchyHost = nil
    }

    private var storedAnchor: LifetimeAnchor?

    /// What the scene's controllers reach their presentation host through (not `weak`:
    /// see ``LifetimeAnchored``).
    package var lifetimeAnchor: LifetimeAnchor {
        LifetimeAnchor.anchor(of: self, in: &storedAnchor)
    }

    /// A new instance of the same scene, with no sessions (what runs a shared scene for
    /// a route that spans processes).
    package func makeSibling() throws(ProtocolError) -> SceneHost {
        try SceneHost(definition: definition, scheduler: context.scheduler, flushScheduler: flushScheduler, hooks: hooks)
    }

    // MARK: - Sessions and viewers

    package func attach(_ session: Session) {
        sessions.append(session)
    }

    package func detach(_ session: Session) {
        sessions.removeAll { $0 === session }
        updateViewerCount()
    }

    package func updateViewerCount() {
        route.viewersChanged(sessions.reduce(0) { $0 + $1.viewerCount }, of: self)
    }

    /// Drops the controller and the widgets, so the `DisposeBag` disposes and
    /// `rx.deallocated` fires (unless someone else holds them).
    package func dispose() {
        tearDownPresentation()
        tree.onChangesPending = nil
        tree.hierarchyHost = nil
        for widget in tree.widgets { tree.remove(widget) }
        controller = nil
    }

    // MARK: - Snapshots

    func sceneMessage(session: Session, resumed: Bool, ack: Int?) -> SceneMessage {
        SceneMessage(session: session.id, scene: definition.name, title: definition.title, resumed: resumed,
                     widgets: route.widgets(of: self, for: session), layout: layout, ack: ack, description: definition.description)
    }

    // MARK: - Changes not caused by a client

    func changesPending() {
        guard !isDispatching, !flushScheduled else { return }
        flushScheduled = true
        // Held until the flush at the end of this loop turn (not weakly: see `init`).
        _ = flushScheduler.schedule(()) { [self] _ in
            flushScheduled = false
            flush()
            return Disposables.create()
        }
    }

    /// Sends the changes recorded since the last flush to every client (but `except`),
    /// as one patch without `ack`.
    package func flush(except: SessionClient? = nil) {
        var changes = tree.takeChanges()
        let structure = takePresentationChanges(filtering: &changes)
        guard !changes.isEmpty || !structure.isEmpty else { return }
        let message = PatchMessage(removed: structure.removed, added: structure.added,
                                   changes: PatchDiff.patchChanges(changes))
        route.deliver(flushedPatch: message, of: self, except: except)
    }

    // MARK: - Events

    /// Runs `event` through the route (see ``dispatch(_:session:client:)``): nil when it
    /// went elsewhere and its answer comes later.
    func handle(_ event: EventMessage, session: Session, client: SessionClient?) -> ServerMessage? {
        route.handle(event, on: self, session: session, client: client)
    }

    /// Runs `event` from `client` of `session` and returns the answer (a patch with the
    /// changes it caused, minus the sender's own value, or an error). Everybody else
    /// gets the full changes as a patch without `ack`.
    package func dispatch(_ event: EventMessage, session: Session?, client: SessionClient?) -> ServerMessage {
        // Changes from before this event go out first, in their own patch.
        if tree.hasPendingChanges { flush() }

        guard let widget = tree.widget(withID: event.target) else {
            return .error(ErrorMessage(ack: event.seq, code: .unknownTarget,
                                       message: "scene '\(definition.name)' has no widget '\(event.target)'",
                                       target: event.target))
        }
        // Tables, alerts, a search bar's buttons: events that are not control events (no
        // value echo). A control's own events skip the protocol check.
        let control = widget as? Control
        let name = Control.Event(name: event.event)
        if control == nil || name == nil, let receiver = widget as? any WidgetEventReceiver {
            let widgetEvent = WidgetEvent(name: event.event, row: event.row, toSection: event.toSection,
                                          toIndex: event.toIndex, action: event.action, value: event.value)
            return run(event, session: session, client: client, widgetID: widget.id, valueProperty: nil) {
                do throws(WidgetInputError) {
                    try receiver.receive(widgetEvent)
                    return .success(nil)
                } catch {
                    return .failure(error)
                }
            }
        }
        guard let name else {
            return .error(ErrorMessage(ack: event.seq, code: .unknownEvent,
                                       message: "'\(event.event)' is not a control event name", target: event.target))
        }
        guard let control else {
            return .error(ErrorMessage(ack: event.seq, code: .unknownEvent,
                                       message: "\(widget.kind) '\(widget.id)' is not a control and sends no events",
                                       target: event.target))
        }
        // A value event from a control that has a value says what the value became; without
        // one it would be taken as a bare action and change nothing.
        // (A tag test, not `== nil`: that copies the value on the hot path.)
        if name == .valueChanged || name == .editingChanged, case .none = event.value, let property = control.valueProperty {
            return .error(ErrorMessage(ack: event.seq, code: .badValue,
                                       message: "\(control.kind) '\(control.id)': \(event.event) needs a \"value\" (its \(property))",
                                       target: event.target))
        }

        // The closure takes the value alone: capturing the whole event copies it.
        let value = event.value
        return run(event, session: session, client: client, widgetID: control.id, valueProperty: control.valueProperty) {
            do throws(WidgetInputError) {
                let applied = try control.sendUserEvent(name, value: value)
                return .success(applied)
            } catch {
                return .failure(error)
            }
        }
    }

    /// Runs a user's action (`perform`) and builds the answer: the changes it caused,
    /// minus the sender's own value of `valueProperty`, or an error.
    func run(_ event: EventMessage, session: Session?, client: SessionClient?, widgetID: String,
                     valueProperty: String?, _ perform: () -> Result<WidgetValue?, WidgetInputError>) -> ServerMessage {
        isDispatching = true
        let errors = hooks.collectBindingErrors(perform)
        isDispatching = false
        // One buffer for every event's changes: they are turned into patches right here.
        var changes = changesBuffer
        changesBuffer = []
        tree.takeChanges(into: &changes)
        let structure = takePresentationChanges(filtering: &changes)
        defer {
            changes.removeAll(keepingCapacity: true)
            changesBuffer = changes
        }

        let (result, bindingErrors) = errors
        let applied: WidgetValue?
        switch consume result {
        case .failure(let error):
            // Nothing was applied or sent.
            return .error(ErrorMessage(ack: event.seq, code: ErrorCode(error.code), message: error.message,
                                       target: event.target))
        case .success(let value):
            applied = value
        }

        // The sender already shows what it sent: leave that out, unless a binding made
        // it something else (a slider clamped it, a formatter rewrote it).
        var echoed: (id: String, property: String, value: WidgetValue)?
        if case .some(let sent) = event.value, let property = valueProperty, let applied,
           PatchDiff.sameValue(sent: sent, applied: applied) {
            echoed = (widgetID, property, applied)
            // A handler that put the value back as it was before the event (a chat field
            // cleared on Return) leaves no change behind, yet the sender shows what it
            // sent: tell it. (Rare path: only when no change of that property is left.)
            let left = changes.withUnsafeBufferPointer { changes in
                // By index: `contains(where:)` copies each change.
                changes.indices.contains { changes[$0].widgetID == widgetID && changes[$0].property == property }
            }
            if !left,
               let current = tree.widget(withID: widgetID)?.snapshot()[property], current != applied {
                changes.append(WidgetChange(widgetID: widgetID, property: property, value: current, oldValue: applied))
            }
        }
        // Everyone else gets every change; the full list is built only when someone else
        // watches (usually nobody does). Each change becomes a patch change once.
        let othersWatch = (!changes.isEmpty || !structure.isEmpty)
            && route.hasOtherViewers(of: self, than: client)
        var all: [PatchChange] = []
        if othersWatch { all.reserveCapacity(changes.count) }
        var own: [PatchChange] = []
        own.reserveCapacity(changes.count)
        // Each change is moved out, leaving a placeholder that costs nothing to clear:
        // `for change in changes`,
        // or `changes[index]` as an argument, copies it (retaining its values) only to
        // release it again.
        for index in changes.indices {
            var change = WidgetChange.placeholder
            swap(&change, &changes[index])
            let patch = PatchDiff.patchChange(change)
            if othersWatch { all.append(patch) }
            if let echoed, change.widgetID == echoed.id, change.property == echoed.property,
               case .value(let value) = patch.update, value == echoed.value {
                continue
            }
            own.append(patch)
        }
        if othersWatch {
            route.deliver(eventPatch: PatchMessage(removed: structure.removed, added: structure.added, changes: all),
                          of: self, except: client)
        }

        if let failure = bindingErrors.first {
            if let session { hooks.bindingFailed(session: session) }
            if !own.isEmpty || !structure.isEmpty, let client {
                client.send(.patch(PatchMessage(removed: structure.removed, added: structure.added, changes: own)))
            }
            let more = bindingErrors.count > 1 ? " (and \(bindingErrors.count - 1) more)" : ""
            return .error(ErrorMessage(ack: event.seq, code: .bindingFailed,
                                       message: "a binding failed: \(failure)\(more)", target: event.target))
        }
        return .patch(PatchMessage(ack: event.seq, removed: structure.removed, added: structure.added, changes: own))
    }
}

extension ErrorCode {
    /// The wire code for a widget input error.
    init(_ code: WidgetInputError.Code) {
        switch code {
        case .unknownEvent: self = .unknownEvent
        case .unknownProperty, .badValue: self = .badValue
        case .disabled: self = .disabled
        case .unknownRow: self = .unknownRow
        case .unknownAction: self = .unknownAction
        case .indexOutOfRange: self = .indexOutOfRange
        }
    }
}

extension WidgetChange {
    /// What a change moved out of a buffer leaves behind (small strings: no allocation).
    fileprivate static var placeholder: WidgetChange {
        WidgetChange(widgetID: "", property: "", value: .null, oldValue: .null)
    }
}
