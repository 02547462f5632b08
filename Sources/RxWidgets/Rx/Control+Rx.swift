import RxCore

extension Reactive where Base: Control {
    /// Whether the control is enabled.
    public var isEnabled: Binder<Bool> {
        Binder(base) { control, enabled in
            control.isEnabled = enabled
        }
    }

    /// Whether the control is selected.
    public var isSelected: Binder<Bool> {
        Binder(base) { control, selected in
            control.isSelected = selected
        }
    }

    /// The control's `controlEvents`, as a ``ControlEvent``: one `()` each time the
    /// control sends one of them; completes when the control is deinitialised. Does not
    /// keep the control alive.
    public func controlEvent(_ controlEvents: Control.Event) -> ControlEvent<Void> {
        let reference = UnretainedReference(base)
        let source: Observable<Void> = Observable.create { observer in
            MainScheduler.ensureRunningOnMainThread()
            guard let control = reference.object else {
                observer.on(.completed)
                return Disposables.create()
            }
            // `nil`: the control is being deinitialised (see `Control.deinit`).
            return control.register(controlEvents) { control in
                if control == nil {
                    observer.on(.completed)
                } else {
                    observer.onNext(())
                }
            }
        }
        return ControlEvent(events: source)
    }

    /// A two-way property of the control, as in RxCocoa: subscribing sends `getter`'s
    /// value at once and again each time the control sends one of `editingEvents`;
    /// elements bound to it are written with `setter` on the main loop while the control
    /// is alive. Completes when the control is deinitialised; does not keep it alive.
    public func controlProperty<T>(
        editingEvents: Control.Event,
        getter: @escaping (Base) -> T,
        setter: @escaping (Base, T) -> Void
    ) -> ControlProperty<T> {
        let reference = UnretainedReference(base)
        let source: Observable<T> = Observable.create { observer in
            MainScheduler.ensureRunningOnMainThread()
            guard let control = reference.object else {
                observer.on(.completed)
                return Disposables.create()
            }
            observer.onNext(getter(control))
            // `nil`: the control is being deinitialised (see `Control.deinit`). Otherwise
            // it is this registration's control, so a `Base`.
            return control.register(editingEvents) { control in
                guard let control else {
                    observer.on(.completed)
                    return
                }
                observer.onNext(getter(unsafeDowncast(control, to: Base.self)))
            }
        }
        return ControlProperty<T>(values: source, valueSink: Binder(base, binding: setter))
    }

    /// ``controlProperty(editingEvents:getter:setter:)`` with RxCocoa's default editing
    /// events, `[.allEditingEvents, .valueChanged]`.
    public func controlPropertyWithDefaultEvents<T>(
        editingEvents: Control.Event = [.allEditingEvents, .valueChanged],
        getter: @escaping (Base) -> T,
        setter: @escaping (Base, T) -> Void
    ) -> ControlProperty<T> {
        controlProperty(editingEvents: editingEvents, getter: getter, setter: setter)
    }
}
