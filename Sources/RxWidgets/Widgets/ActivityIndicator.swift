import Foundation
/// A spinner, like `UIActivityIndicatorView`: ``startAnimating()`` and
/// ``stopAnimating()``; `rx.isAnimating` binds them.
open class ActivityIndicator: View {
    /// Whether the spinner turns. Default `false`.
    public private(set) var isAnimating: Bool = false {
        didSet {
            if isAnimating != oldValue {
                changed(PropertyName.isAnimating, .bool(oldValue), .bool(isAnimating))
            }
        }
    }

    /// Whether the spinner hides while stopped (UIKit's default, `true`): it then sets
    /// `isHidden` as it starts and stops.
    public var hidesWhenStopped: Bool = true {
        didSet { updateHidden() }
    }

    /// A stopped spinner (hidden, since it hides when stopped).
    public override init(frame: CGRect) {
        super.init(frame: frame)
        isHidden = true
    }

    /// UIKit's archive initializer: Bindery has no archives, so this is the plain view.
    public required convenience init?(coder: NSCoder) {
        self.init(frame: .zero)
    }

    /// Starts the spinner.
    public func startAnimating() {
        isAnimating = true
        updateHidden()
    }

    /// Stops the spinner.
    public func stopAnimating() {
        isAnimating = false
        updateHidden()
    }

    private func updateHidden() {
        if hidesWhenStopped { isHidden = !isAnimating }
    }

    override public var kind: String { "activityIndicator" }

    override func collectProperties(into properties: inout [String: WidgetValue]) {
        super.collectProperties(into: &properties)
        properties[PropertyName.isAnimating] = .bool(isAnimating)
    }
}
