import Foundation
/// A read-only text, like `UILabel`.
open class Label: View {
    /// The text; `nil` by default.
    public var text: String? {
        didSet {
            if text != oldValue {
                changed(PropertyName.text, WidgetValue(oldValue), WidgetValue(text))
            }
        }
    }

    /// The text colour; black by default. Setting `nil` restores black, as in UIKit.
    public var textColor: Color! {
        get { storedTextColor }
        set {
            let old = storedTextColor
            storedTextColor = newValue ?? .black
            if storedTextColor != old {
                changed(PropertyName.textColor, .color(old), .color(storedTextColor))
            }
        }
    }

    private var storedTextColor: Color = .black

    /// A label with no text, in black.
    public override init(frame: CGRect) {
        super.init(frame: frame)
    }

    /// UIKit's archive initializer: Bindery has no archives, so this is the plain view.
    public required convenience init?(coder: NSCoder) {
        self.init(frame: .zero)
    }

    override public var kind: String { "label" }

    override func collectProperties(into properties: inout [String: WidgetValue]) {
        super.collectProperties(into: &properties)
        properties[PropertyName.text] = WidgetValue(text)
        properties[PropertyName.textColor] = .color(storedTextColor)
    }
}
