import Foundation
import RxCore

/// A "pull to refresh" control on a table or collection view, as `UIRefreshControl`:
/// set it as the view's `refreshControl`; the user's pull (in the browser: the Refresh
/// button above the view, or pulling it down on a touch screen) starts refreshing —
/// ``isRefreshing`` becomes `true`, then `.valueChanged` is sent — and the app calls
/// ``endRefreshing()`` when its work is done.
///
/// On the wire it is a widget of its own (kind `refreshControl`) naming its view in
/// `view`, with `isRefreshing` and `title`; the client reports the pull as `valueChanged`
/// without a value (PROTOCOL.md, "Refresh controls").
open class RefreshControl: Control {
    /// Whether it is refreshing (the spinner shows). Default `false`.
    public private(set) var isRefreshing = false {
        didSet {
            if isRefreshing != oldValue { changed(RefreshProperty.isRefreshing, .bool(oldValue), .bool(isRefreshing)) }
        }
    }

    /// A text under the spinner (UIKit's `attributedTitle`, plain). Default `nil`.
    public var title: String? {
        didSet {
            if title != oldValue { changed(PropertyName.title, WidgetValue(oldValue), WidgetValue(title)) }
        }
    }

    /// The table or collection view it belongs to (set through their `refreshControl`).
    public internal(set) weak var scrollView: View? {
        didSet {
            if scrollView !== oldValue { changed(RefreshProperty.view, WidgetValue(oldValue?.id), WidgetValue(scrollView?.id)) }
        }
    }

    /// A control that is not refreshing.
    public override init(frame: CGRect) {
        super.init(frame: frame)
    }

    override public var kind: String { "refreshControl" }

    /// Starts refreshing (the spinner shows); sends no event, as in UIKit.
    public func beginRefreshing() {
        isRefreshing = true
    }

    /// Stops refreshing (the spinner hides); sends no event.
    public func endRefreshing() {
        isRefreshing = false
    }

    override public var userEvents: Event { [.valueChanged] }

    /// A user's pull: refreshing starts, then `.valueChanged` goes out; a pull while
    /// refreshing does nothing (UIKit offers none).
    override func userEventWillSend(_ event: Event) -> Bool {
        guard !isRefreshing else { return false }
        isRefreshing = true
        return true
    }

    override func collectProperties(into properties: inout [String: WidgetValue]) {
        super.collectProperties(into: &properties)
        properties[RefreshProperty.view] = WidgetValue(scrollView?.id)
        properties[RefreshProperty.isRefreshing] = .bool(isRefreshing)
        if let title { properties[PropertyName.title] = .string(title) }
    }
}

enum RefreshProperty {
    static let view = "view"
    static let isRefreshing = "isRefreshing"
}

extension View {
    /// The refresh control of a table or collection view (UIScrollView's
    /// `refreshControl`); `nil` by default. Setting it attaches it (a control attached
    /// elsewhere moves). The server shows controls attached before the scene starts.
    public var refreshControl: RefreshControl? {
        get { RefreshControls.table[ObjectIdentifier(self)] }
        set {
            let key = ObjectIdentifier(self)
            let old = RefreshControls.table[key]
            if old === newValue { return }
            if let old, old.scrollView === self { old.scrollView = nil }
            if let newValue {
                if let previous = newValue.scrollView, previous !== self { previous.refreshControl = nil }
                if RefreshControls.table[key] == nil {
                    _ = lifetimeToken.deallocated.subscribe(onNext: { RefreshControls.table[key] = nil })
                }
                RefreshControls.table[key] = newValue
                newValue.scrollView = self
            } else {
                RefreshControls.table[key] = nil
            }
        }
    }

    /// The widgets that belong to this one and are shown with it: its gesture
    /// recognizers and its refresh control (the server adds them to the scene).
    public var attachedWidgets: [View] {
        var widgets: [View] = gestureRecognizers ?? []
        if let refreshControl { widgets.append(refreshControl) }
        return widgets
    }
}

/// Views' refresh controls, by identity (an extension cannot store them). Loop-confined.
enum RefreshControls {
    nonisolated(unsafe) static var table: [ObjectIdentifier: RefreshControl] = [:]
}
