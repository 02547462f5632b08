import Foundation
import RxCore

/// A gesture on a view, as `UIGestureRecognizer`: attach it with
/// `view.addGestureRecognizer(_:)` and observe `rx.event`. On the wire it is a widget
/// of its own (kind `tapGestureRecognizer`, ...) naming its view in `view`; the client
/// reports the gesture as `recognized`.
open class GestureRecognizer: View, WidgetEventReceiver {
    /// The recognizer's state, as `UIGestureRecognizer.State`.
    public enum State: Sendable {
        /// Waiting for a gesture.
        case possible
        /// A continuous gesture began.
        case began
        /// A continuous gesture changed.
        case changed
        /// The gesture ended (a discrete gesture is recognized).
        case ended
        /// The gesture was cancelled.
        case cancelled
        /// The gesture failed.
        case failed

        /// A discrete gesture's "recognized" is `ended`, as in UIKit.
        public static let recognized = State.ended
    }

    /// The state: `.possible` between gestures, the gesture's while `rx.event` runs.
    public private(set) var state: State = .possible

    /// Whether it reports gestures. Default `true`.
    public var isEnabled: Bool = true {
        didSet {
            if isEnabled != oldValue { changed(GestureProperty.isEnabled, .bool(oldValue), .bool(isEnabled)) }
        }
    }

    /// Whether the view's own controls still get the touch (the client decides). Default `true`.
    public var cancelsTouchesInView: Bool = true

    /// The view it is attached to.
    public internal(set) weak var view: View?

    let eventHub = EventHub<GestureRecognizer>()

    /// A recognizer attached to no view.
    public override init(frame: CGRect) {
        super.init(frame: frame)
    }

    /// UIKit's archive initializer: Bindery has no archives, so this is the plain view.
    public required convenience init?(coder: NSCoder) {
        self.init(frame: .zero)
    }

    override public var kind: String { "gestureRecognizer" }

    /// The event a client sends when the user made the gesture.
    public static let recognized = "recognized"

    /// The states a recognized gesture goes through (a tap: ended; a long press: began,
    /// ended).
    var recognizedStates: [State] { [.ended] }

    override func collectProperties(into properties: inout [String: WidgetValue]) {
        super.collectProperties(into: &properties)
        properties[GestureProperty.view] = WidgetValue(view?.id)
        properties[GestureProperty.isEnabled] = .bool(isEnabled)
    }

    /// `recognized`.
    public var widgetEventNames: Set<String> { [Self.recognized] }

    /// The user made the gesture: `rx.event` fires for each of its states, then the
    /// recognizer is `.possible` again.
    public func receive(_ event: WidgetEvent) throws(WidgetInputError) {
        guard event.name == Self.recognized else {
            throw WidgetInputError(.unknownEvent, "\(kind) '\(id)' does not send \(event.name)")
        }
        guard isEnabled else { throw WidgetInputError(.disabled, "\(kind) '\(id)' is disabled") }
        for state in recognizedStates {
            self.state = state
            eventHub.send(self)
        }
        state = .possible
    }
}

/// A tap (or double tap), as `UITapGestureRecognizer`.
open class TapGestureRecognizer: GestureRecognizer {
    /// The taps needed (2: a double tap). Default 1.
    public var numberOfTapsRequired: Int = 1 {
        didSet {
            if numberOfTapsRequired != oldValue {
                changed(GestureProperty.numberOfTapsRequired, .number(Double(oldValue)), .number(Double(numberOfTapsRequired)))
            }
        }
    }

    override public var kind: String { "tapGestureRecognizer" }

    override func collectProperties(into properties: inout [String: WidgetValue]) {
        super.collectProperties(into: &properties)
        properties[GestureProperty.numberOfTapsRequired] = .number(Double(numberOfTapsRequired))
    }
}

/// A press held down, as `UILongPressGestureRecognizer`: `rx.event` fires with `.began`,
/// then `.ended`.
open class LongPressGestureRecognizer: GestureRecognizer {
    /// How long the press must last, in seconds. Default 0.5.
    public var minimumPressDuration: Double = 0.5 {
        didSet {
            if minimumPressDuration != oldValue {
                changed(GestureProperty.minimumPressDuration, .number(oldValue), .number(minimumPressDuration))
            }
        }
    }

    override public var kind: String { "longPressGestureRecognizer" }

    override var recognizedStates: [State] { [.began, .ended] }

    override func collectProperties(into properties: inout [String: WidgetValue]) {
        super.collectProperties(into: &properties)
        properties[GestureProperty.minimumPressDuration] = .number(minimumPressDuration)
    }
}

extension View {
    /// The recognizers attached to this view, or `nil` when none is.
    public var gestureRecognizers: [GestureRecognizer]? {
        let list = GestureRecognizers.table[ObjectIdentifier(self)] ?? []
        return list.isEmpty ? nil : list
    }

    /// Attaches `recognizer` (moving it from another view). The server shows recognizers
    /// of a scene's widgets attached before the scene starts (in `viewDidLoad`).
    public func addGestureRecognizer(_ recognizer: GestureRecognizer) {
        recognizer.view?.removeGestureRecognizer(recognizer)
        let key = ObjectIdentifier(self)
        if GestureRecognizers.table[key] == nil {
            _ = lifetimeToken.deallocated.subscribe(onNext: { GestureRecognizers.table[key] = nil })
        }
        GestureRecognizers.table[key, default: []].append(recognizer)
        recognizer.view = self
    }

    /// Detaches `recognizer`.
    public func removeGestureRecognizer(_ recognizer: GestureRecognizer) {
        GestureRecognizers.table[ObjectIdentifier(self)]?.removeAll { $0 === recognizer }
        if recognizer.view === self { recognizer.view = nil }
    }
}

/// Views' recognizers, by identity (an extension cannot store them). Loop-confined.
enum GestureRecognizers {
    nonisolated(unsafe) static var table: [ObjectIdentifier: [GestureRecognizer]] = [:]
}

enum GestureProperty {
    static let view = "view"
    static let isEnabled = "isEnabled"
    static let numberOfTapsRequired = "numberOfTapsRequired"
    static let minimumPressDuration = "minimumPressDuration"
}
