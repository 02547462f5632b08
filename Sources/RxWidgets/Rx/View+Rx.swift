import Foundation
import RxCore

extension Reactive where Base: View {
    /// The view's background colour.
    public var backgroundColor: Binder<Color?> {
        Binder(base) { view, color in
            view.backgroundColor = color
        }
    }

    /// Whether the view is hidden.
    public var isHidden: Binder<Bool> {
        Binder(base) { view, hidden in
            view.isHidden = hidden
        }
    }

    /// The view's opacity.
    public var alpha: Binder<CGFloat> {
        Binder(base) { view, alpha in
            view.alpha = alpha
        }
    }
}
