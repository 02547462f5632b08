import RxCore

extension Reactive where Base: Button {
    /// The action the button runs on each tap; its `enabled` drives the button's
    /// `isEnabled`. Setting another action (or `nil`) ends the previous binding.
    public var action: CocoaAction? {
        get { base.actionBinding?.action as? CocoaAction }
        nonmutating set {
            if let newValue {
                bind(to: newValue, controlEvent: tap) { _ in }
            } else {
                unbindAction()
            }
        }
    }

    /// Runs `action` with `inputTransform(button)` on each tap (see
    /// ``Reactive/bind(to:controlEvent:inputTransform:)``).
    public func bind<Input, Output>(to action: Action<Input, Output>, inputTransform: @escaping (Base) -> Input) {
        bind(to: action, controlEvent: tap, inputTransform: inputTransform)
    }

    /// Runs `action` with `input` on each tap.
    public func bind<Input, Output>(to action: Action<Input, Output>, input: Input) {
        bind(to: action, controlEvent: tap) { _ in input }
    }
}
