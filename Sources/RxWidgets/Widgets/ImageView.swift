import Foundation
/// Shows an image, like `UIImageView`; the client loads it from the image's URL.
open class ImageView: View {
    /// The image; `nil` by default.
    public var image: Image? {
        didSet {
            if image != oldValue {
                changed(PropertyName.image, Self.value(oldValue), Self.value(image))
            }
        }
    }

    /// An empty image view.
    public override init(frame: CGRect) {
        super.init(frame: frame)
    }

    /// UIKit's archive initializer: Bindery has no archives, so this is the plain view.
    public required convenience init?(coder: NSCoder) {
        self.init(frame: .zero)
    }

    /// An image view showing `image`.
    public convenience init(image: Image?) {
        self.init()
        self.image = image
    }

    private static func value(_ image: Image?) -> WidgetValue {
        image.map { .string($0.url.absoluteString) } ?? .null
    }

    override public var kind: String { "imageView" }

    override func collectProperties(into properties: inout [String: WidgetValue]) {
        super.collectProperties(into: &properties)
        properties[PropertyName.image] = Self.value(image)
    }
}
