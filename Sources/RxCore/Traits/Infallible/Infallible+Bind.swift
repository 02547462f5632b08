// RxCocoa's `Infallible+Bind.swift`: an infallible binds like an observable, with no
// error to report.

extension InfallibleType {
    /// Forwards every event to each observer, in order.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element {
        asObservable().subscribe { event in
            for observer in observers {
                observer.on(event)
            }
        }
    }

    /// Forwards every event, as an optional, to each observer, in order.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element? {
        asObservable().subscribe { event in
            for observer in observers {
                observer.on(event.map { $0 as Element? })
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

    /// Subscribes `onNext`.
    public func bind(onNext: @escaping (Element) -> Void) -> Disposable {
        subscribe(onNext: onNext)
    }

    /// Subscribes `onNext` with `object`, held weakly; skipped once it is gone.
    public func bind<Object: AnyObject>(with object: Object, onNext: @escaping (Object, Element) -> Void) -> Disposable {
        subscribe(with: object, onNext: onNext)
    }

    /// Sends each element to every relay; `completed` is ignored.
    public func bind(to relays: PublishRelay<Element>...) -> Disposable {
        subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends each element, as an optional, to every relay; `completed` is ignored.
    public func bind(to relays: PublishRelay<Element?>...) -> Disposable {
        subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends each element to every relay; `completed` is ignored.
    public func bind(to relays: BehaviorRelay<Element>...) -> Disposable {
        subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends each element, as an optional, to every relay; `completed` is ignored.
    public func bind(to relays: BehaviorRelay<Element?>...) -> Disposable {
        subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends each element to every relay; `completed` is ignored.
    public func bind(to relays: ReplayRelay<Element>...) -> Disposable {
        subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }

    /// Sends each element, as an optional, to every relay; `completed` is ignored.
    public func bind(to relays: ReplayRelay<Element?>...) -> Disposable {
        subscribe(onNext: { element in relays.forEach { $0.accept(element) } })
    }
}
