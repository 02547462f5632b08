import Foundation
/// A progress bar, like `UIProgressView`.
open class ProgressView: View {
    private var storedProgress: Float = 0

    /// The progress, `0...1` (clamped, as in UIKit). Default 0.
    public var progress: Float {
        get { storedProgress }
        set {
            guard !newValue.isNaN else { return }
            let clamped = min(max(newValue, 0), 1)
            let old = storedProgress
            storedProgress = clamped
            if clamped != old { changed(PropertyName.progress, WidgetValue(old), WidgetValue(clamped)) }
        }
    }

    /// An empty progress bar.
    public override init(frame: CGRect) {
        super.init(frame: frame)
    }

    /// UIKit's archive initializer: Bindery has no archives, so this is the plain view.
    public required convenience init?(coder: NSCoder) {
        self.init(frame: .zero)
    }

    /// Sets the progress; the animation is the client's business.
    public func setProgress(_ progress: Float, animated: Bool) {
        self.progress = progress
    }

    override public var kind: String { "progressView" }

    override func collectProperties(into properties: inout [String: WidgetValue]) {
        super.collectProperties(into: &properties)
        properties[PropertyName.progress] = WidgetValue(storedProgress)
    }
}
