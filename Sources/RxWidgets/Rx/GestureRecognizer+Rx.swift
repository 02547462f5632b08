import RxCore

extension Reactive where Base: GestureRecognizer {
    /// The recognizer, each time its gesture is made (for each state of a continuous
    /// one), as RxGesture's / RxCocoa's `rx.event`.
    public var event: ControlEvent<Base> {
        let source: Observable<Base> = Observable.create { [weak recognizer = base] observer in
            MainScheduler.ensureRunningOnMainThread()
            guard let recognizer else {
                observer.on(.completed)
                return Disposables.create()
            }
            return recognizer.eventHub.register { sender in
                if let sender = sender as? Base { observer.onNext(sender) }
            }
        }
        .take(until: deallocated)
        return ControlEvent(events: source)
    }
}
