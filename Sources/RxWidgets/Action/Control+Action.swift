import RxCore

extension Control {
    /// What `rx.action` / `rx.bind(to:controlEvent:inputTransform:)` bound: the action
    /// (kept alive by the control, as the Action library's associated object does) and
    /// the subscriptions, disposed when another action is bound or on unbinding.
    final class ActionBinding {
        let action: AnyObject
        let disposeBag: DisposeBag

        init(action: AnyObject, disposeBag: DisposeBag) {
            self.action = action
            self.disposeBag = disposeBag
        }
    }
}

extension Reactive where Base: Control {
    /// Sends `inputTransform(control)` to `action` on each of `controlEvent`'s events,
    /// and binds the action's `enabled` to the control's `isEnabled`. Replaces any
    /// action bound before; ``unbindAction()`` ends it.
    public func bind<Input, Output>(
        to action: Action<Input, Output>,
        controlEvent: ControlEvent<Void>,
        inputTransform: @escaping (Base) -> Input
    ) {
        unbindAction()
        let bag = DisposeBag()
        controlEvent
            .subscribe(onNext: { [weak base] in
                guard let base else { return }
                action.inputs.onNext(inputTransform(base))
            })
            .disposed(by: bag)
        action.enabled
            .bind(to: isEnabled)
            .disposed(by: bag)
        base.actionBinding = Control.ActionBinding(action: action, disposeBag: bag)
    }

    /// Ends the binding made by `rx.action` or `bind(to:controlEvent:inputTransform:)`.
    public func unbindAction() {
        base.actionBinding = nil
    }
}
