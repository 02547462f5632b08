import RxCore

extension ControlProperty {
    /// The property as a `Driver`, as in RxCocoa: its values, delivered on the main loop,
    /// shared with replay 1.
    ///
    /// A control property never errors; should one anyway, the error goes to
    /// `Hooks.bindingErrorHandler` and the driver completes (RxCocoa traps in debug
    /// builds; a server must not).
    public func asDriver() -> Driver<Element> {
        asDriver(onErrorRecover: { error in
            Hooks.bindingErrorHandler(error)
            return Driver.empty()
        })
    }
}

extension ControlEvent {
    /// The events as a `Driver` (main loop, replay 1), as in RxCocoa. An error (which a
    /// control event never sends) is reported as for ``ControlProperty/asDriver()``.
    public func asDriver() -> Driver<Element> {
        asDriver(onErrorRecover: { error in
            Hooks.bindingErrorHandler(error)
            return Driver.empty()
        })
    }

    /// The events as a `Signal` (main loop, no replay), as in RxCocoa. An error (which a
    /// control event never sends) is reported as for ``ControlProperty/asDriver()``.
    public func asSignal() -> Signal<Element> {
        asSignal(onErrorRecover: { error in
            Hooks.bindingErrorHandler(error)
            return Signal.empty()
        })
    }
}
