extension Infallible {
    /// The callback an ``Infallible/create(subscribe:)`` body sends events to.
    public typealias InfallibleObserver = (InfallibleEvent<Element>) -> Void

    /// An infallible whose subscribe runs `subscribe`; events after the completion are
    /// ignored.
    public static func create(subscribe: @escaping (@escaping InfallibleObserver) -> Disposable) -> Infallible<Element> {
        Infallible(Observable.create { observer in
            subscribe { event in
                switch event {
                case .next(let element): observer.onNext(element)
                case .completed: observer.onCompleted()
                }
            }
        })
    }
}
