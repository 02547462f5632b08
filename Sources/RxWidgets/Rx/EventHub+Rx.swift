import RxCore

extension Reactive where Base: LifetimeTracked {
    /// The values `hub` sends while the object lives, as a control event (the item,
    /// upload and search-bar events): completes when the object goes.
    func hubEvent<Value>(_ hub: KeyPath<Base, EventHub<Value>>) -> ControlEvent<Value> {
        let source: Observable<Value> = Observable.create { [weak object = base] observer in
            MainScheduler.ensureRunningOnMainThread()
            guard let object else {
                observer.on(.completed)
                return Disposables.create()
            }
            return object[keyPath: hub].register { observer.onNext($0) }
        }
        .take(until: deallocated)
        return ControlEvent(events: source)
    }
}
