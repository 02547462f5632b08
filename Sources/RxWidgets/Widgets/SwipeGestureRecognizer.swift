import Foundation
/// A swipe in one of the allowed directions, as `UISwipeGestureRecognizer`: a discrete
/// gesture, so `rx.event` fires once (`.ended`) per swipe. As in UIKit it does not say
/// which of its directions the swipe went: make one recognizer per direction to tell
/// them apart.
///
/// In the browser a quick pointer or touch stroke of the view recognizes it, and so do
/// the arrow keys while the view has the focus (the keyboard's alternative).
open class SwipeGestureRecognizer: GestureRecognizer {
    /// The directions a swipe may go, as `UISwipeGestureRecognizer.Direction`.
    public struct Direction: OptionSet, Sendable, Hashable {
        /// The raw bits (UIKit's values).
        public let rawValue: UInt
        /// A set of directions.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// To the right.
        public static let right = Direction(rawValue: 1 << 0)
        /// To the left.
        public static let left = Direction(rawValue: 1 << 1)
        /// Upwards.
        public static let up = Direction(rawValue: 1 << 2)
        /// Downwards.
        public static let down = Direction(rawValue: 1 << 3)

        /// The directions' wire names, in UIKit's bit order.
        var names: [String] {
            [(Direction.right, "right"), (.left, "left"), (.up, "up"), (.down, "down")]
                .filter { contains($0.0) }.map(\.1)
        }
    }

    /// The directions that count. Default ``Direction/right``, as in UIKit.
    public var direction: Direction = .right {
        didSet {
            if direction != oldValue { changed(Self.directionProperty, .strings(oldValue.names), .strings(direction.names)) }
        }
    }

    /// The fingers a swipe needs (the browser recognizes one). Default 1.
    public var numberOfTouchesRequired: Int = 1

    /// A recognizer of swipes to the right.
    public override init(frame: CGRect) {
        super.init(frame: frame)
    }

    override public var kind: String { "swipeGestureRecognizer" }

    static let directionProperty = "direction"

    override func collectProperties(into properties: inout [String: WidgetValue]) {
        super.collectProperties(into: &properties)
        properties[Self.directionProperty] = .strings(direction.names)
    }
}
