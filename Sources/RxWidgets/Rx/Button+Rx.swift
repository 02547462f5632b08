import RxCore

extension Reactive where Base: Button {
    /// The button's taps (`touchUpInside`).
    public var tap: ControlEvent<Void> {
        controlEvent(.touchUpInside)
    }

    /// The button's title for `controlState`.
    public func title(for controlState: Control.State = []) -> Binder<String?> {
        Binder(base) { button, title in
            button.setTitle(title, for: controlState)
        }
    }
}
