import Foundation
import RxCore

/// The base of widgets that users act on, like `UIControl`: `isEnabled`, control events
/// and target/action registration.
///
/// Events are sent by ``sendActions(for:)`` — synchronously, to every registration whose
/// events intersect — which the server calls (through ``sendUserEvent(_:value:)``) when a
/// client reports a user action. Setting properties in code never sends events.
open class Control: View {
    /// Whether users can act on the control. Default `true`. A disabled control rejects
    /// user events (``sendUserEvent(_:value:)``); ``sendActions(for:)`` still sends.
    public var isEnabled: Bool = true {
        didSet {
            if isEnabled != oldValue {
                changed(PropertyName.isEnabled, .bool(oldValue), .bool(isEnabled))
                enabledDidChange()
            }
        }
    }

    /// Whether the control is selected. Default `false`.
    public var isSelected: Bool = false

    /// The control's state: `.disabled` when not enabled, `.selected` when selected.
    public var state: State {
        var state: State = .normal
        if !isEnabled { state.insert(.disabled) }
        if isSelected { state.insert(.selected) }
        return state
    }

    private var registrations: [ControlTargetRegistration] = []

    /// The action bound by `rx.action` (see `Control+Action.swift`).
    var actionBinding: ActionBinding?

    /// Whether a text input has the keyboard focus (see `View+FirstResponder.swift`).
    var isFocused = false
    /// Whether the server took the focus away since the user last focused it.
    var focusResignedByServer = false

    /// A control with UIKit's defaults.
    public override init(frame: CGRect) {
        super.init(frame: frame)
    }

    /// UIKit's archive initializer: Bindery has no archives, so this is the plain view.
    public required convenience init?(coder: NSCoder) {
        self.init(frame: .zero)
    }

    deinit {
        endLifetimeAnchor()
        for registration in registrations { registration.controlDidDeinit() }
        // The `rx` subscriptions complete here, as RxCocoa's `take(until: deallocated)`
        // makes them, without a subject and an operator per subscription. Targets' actions
        // are not called.
        if registrations.isEmpty { return }
        let current = registrations
        for registration in current where !registration.hasTarget && !registration.isDisposed {
            registration.handler(nil)
        }
    }

    override public var kind: String { "control" }

    override func collectProperties(into properties: inout [String: WidgetValue]) {
        super.collectProperties(into: &properties)
        properties[PropertyName.isEnabled] = .bool(isEnabled)
        collectFocus(into: &properties)
    }

    /// Lets subclasses react to `isEnabled` (a button's title depends on it).
    func enabledDidChange() {}

    // MARK: - Target and action

    /// Calls `action` on `target` (held weakly, as UIKit does) with this control as the
    /// sender whenever one of `controlEvents` is sent. Write the action as a method
    /// reference: `slider.addTarget(self, action: ColorsViewController.sliderChanged,
    /// for: .valueChanged)` with `func sliderChanged(_ sender: Slider)`.
    public func addTarget<Target: AnyObject, Sender: Control>(
        _ target: Target,
        action: @escaping (Target) -> (Sender) -> Void,
        for controlEvents: Event
    ) {
        register(controlEvents, target: target) { [weak target] control in
            guard let target, let sender = control as? Sender else { return }
            action(target)(sender)
        }
    }

    /// Calls `action` on `target` (held weakly) whenever one of `controlEvents` is sent;
    /// for action methods without a sender parameter.
    public func addTarget<Target: AnyObject>(
        _ target: Target,
        action: @escaping (Target) -> () -> Void,
        for controlEvents: Event
    ) {
        register(controlEvents, target: target) { [weak target] _ in
            guard let target else { return }
            action(target)()
        }
    }

    /// Stops sending `controlEvents` to `target`'s actions; `nil` means every target.
    /// Subscriptions made through `rx` are not targets and stay.
    public func removeTarget(_ target: AnyObject?, for controlEvents: Event = .allEvents) {
        for registration in registrations where registration.hasTarget {
            guard target == nil || registration.target === target else { continue }
            registration.events.subtract(controlEvents)
            if registration.events.isEmpty {
                registration.dispose()
            }
        }
    }

    /// The events some target or subscription is registered for.
    public var allControlEvents: Event {
        registrations.reduce(into: Event()) { $0.formUnion($1.events) }
    }

    /// Sends `controlEvents` now: calls, in registration order, every action and
    /// subscription registered for any of them (each once). Runs synchronously, as in
    /// UIKit, whether or not the control is enabled.
    public func sendActions(for controlEvents: Event) {
        // A snapshot: handlers may register or remove others while we go.
        let current = registrations
        for registration in current where !registration.isDisposed && !registration.events.isDisjoint(with: controlEvents) {
            if registration.hasTarget && registration.target == nil {
                registration.dispose()
                continue
            }
            registration.handler(self)
        }
    }

    /// Registers `handler` for `controlEvents` until the returned registration is
    /// disposed. How `rx.controlEvent` and `rx.controlProperty` listen. Without a target,
    /// `handler` is also called once with `nil` when the control is deinitialised.
    @discardableResult
    func register(_ controlEvents: Event, target: AnyObject? = nil, handler: @escaping (Control?) -> Void) -> ControlTargetRegistration {
        let registration = ControlTargetRegistration(control: self, events: controlEvents, target: target, handler: handler)
        registrations.append(registration)
        return registration
    }

    fileprivate func unregister(_ registration: ControlTargetRegistration) {
        registrations.removeAll { $0 === registration }
    }

    // MARK: - User events (the server's side)

    /// The events a user can cause on this control (what a client may report).
    public var userEvents: Event {
        [.allTouchEvents, .valueChanged, .primaryActionTriggered]
    }

    /// Events UIKit sends together with `event` for a user's action (a button's tap is
    /// also its primary action).
    func companionEvents(of event: Event) -> Event { [] }

    /// Called with a user's event after its value is applied and before it is sent;
    /// `false` drops it (a text input's focus already moved by the server, a pull on a
    /// refreshing refresh control).
    func userEventWillSend(_ event: Event) -> Bool {
        focusUserEventWillSend(event)
    }

    /// Performs a user's action reported by a client: checks that this control sends
    /// `event` and is enabled, applies `value` (if any) to ``View/valueProperty`` with
    /// UIKit's rules, then sends the event (and, as UIKit does, the primary action that
    /// goes with it) through ``sendActions(for:)``.
    ///
    /// - Returns: the value the property holds after applying `value` (differs from
    ///   `value` when clamped), or `nil` when no value was given.
    /// - Throws: ``WidgetInputError``: `unknownEvent` if the control does not send
    ///   `event` (or it is not a single event), `disabled` if not enabled, `badValue` or
    ///   `unknownProperty` for the value (see ``View/applyUserInput(property:value:)``).
    ///   Nothing is applied or sent when it throws.
    @discardableResult
    public func sendUserEvent(_ event: Event, value: WidgetValue? = nil) throws(WidgetInputError) -> WidgetValue? {
        guard event.rawValue.nonzeroBitCount == 1, userEvents.contains(event) else {
            let names = event.names
            let name = names.count == 1 ? names[0] : "events \(event.rawValue)"
            throw WidgetInputError(.unknownEvent, "\(kind) '\(id)' does not send \(name)")
        }
        guard isEnabled else {
            throw WidgetInputError(.disabled, "\(kind) '\(id)' is disabled")
        }
        var applied: WidgetValue?
        if let value {
            guard let property = valueProperty else {
                throw WidgetInputError(.badValue, "\(kind) '\(id)' takes no value")
            }
            applied = try applyUserInput(property: property, value: value)
        }
        guard userEventWillSend(event) else { return applied }
        sendActions(for: event.union(companionEvents(of: event)))
        return applied
    }
}

/// One registration of a handler for some control events: a target's action or an `rx`
/// subscription. Disposing it unregisters it (on the loop thread, where `rx`
/// subscriptions are disposed).
final class ControlTargetRegistration: Disposable {
    /// Not retained, nor weak (see ``LifetimeAnchored``): the control clears it in its
    /// `deinit`.
    private unowned(unsafe) var control: Control?
    var events: Control.Event
    /// The target of a target/action registration (weak, as UIKit holds targets).
    private(set) weak var target: AnyObject?
    let hasTarget: Bool
    /// Called with the control for its events; with `nil` when it is deinitialised
    /// (registrations without a target only).
    let handler: (Control?) -> Void
    private(set) var isDisposed = false

    init(control: Control, events: Control.Event, target: AnyObject?, handler: @escaping (Control?) -> Void) {
        self.control = control
        self.events = events
        self.target = target
        self.hasTarget = target != nil
        self.handler = handler
    }

    func controlDidDeinit() {
        control = nil
    }

    func dispose() {
        if isDisposed { return }
        isDisposed = true
        control?.unregister(self)
    }
}
