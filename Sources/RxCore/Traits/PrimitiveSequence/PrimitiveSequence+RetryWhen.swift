extension PrimitiveSequence {
    /// Resubscribes after an error of type `Error` each time the sequence
    /// `notificationHandler` makes of the errors sends an element; its completion
    /// completes the result and its error fails it. Errors of other types fail at once.
    /// As in RxSwift, this is `Observable.retry(when:)` on the trait's source.
    public func retry<TriggerObservable: ObservableType, Error: Swift.Error>(
        when notificationHandler: @escaping (Observable<Error>) -> TriggerObservable
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry(when: notificationHandler))
    }

    /// Resubscribes after an error each time the sequence `notificationHandler` makes of
    /// the errors sends an element; its completion completes the result and its error
    /// fails it.
    public func retry<TriggerObservable: ObservableType>(
        when notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry(when: notificationHandler))
    }

    /// Resubscribes after an error each time the notifier sends an element.
    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableType, Error: Swift.Error>(
        _ notificationHandler: @escaping (Observable<Error>) -> TriggerObservable
    ) -> PrimitiveSequence<Trait, Element> {
        retry(when: notificationHandler)
    }

    /// Resubscribes after an error each time the notifier sends an element.
    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableType>(
        _ notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable
    ) -> PrimitiveSequence<Trait, Element> {
        retry(when: notificationHandler)
    }
}
