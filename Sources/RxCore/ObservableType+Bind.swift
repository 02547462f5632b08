extension ObservableType {
    /// Forwards every event to each observer, in order.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element {
        bind(to: observers)
    }

    /// Forwards every event, as an optional, to each observer, in order.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element? {
        map { $0 as Element? }.bind(to: observers)
    }

    private func bind<Observer: ObserverType>(to observers: [Observer]) -> Disposable where Observer.Element == Element {
        if observers.count == 1 {
            return asObservable().subscribe(observers[0])
        }
        return subscribe { event in
            for observer in observers {
                observer.on(event)
            }
        }
    }

    /// Passes this sequence to `binder` and returns its result.
    public func bind<Result>(to binder: (Self) -> Result) -> Result {
        binder(self)
    }

    /// Passes this sequence and `curriedArgument` to a curried `binder`.
    public func bind<R1, R2>(to binder: (Self) -> (R1) -> R2, curriedArgument: R1) -> R2 {
        binder(self)(curriedArgument)
    }

    /// Subscribes `onNext`; an error is reported to ``Hooks/bindingErrorHandler``.
    public func bind(onNext: @escaping (Element) -> Void) -> Disposable {
        subscribe(onNext: onNext, onError: { Hooks.bindingErrorHandler($0) })
    }

    /// Subscribes `onNext` with `object`, held weakly; skipped once it is gone.
    public func bind<Object: AnyObject>(with object: Object, onNext: @escaping (Object, Element) -> Void) -> Disposable {
        bind(onNext: { [weak object] element in
            guard let object else { return }
            onNext(object, element)
        })
    }
}
