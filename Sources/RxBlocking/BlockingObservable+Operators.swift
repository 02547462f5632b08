import RxCore

extension BlockingObservable {
    /// Blocks until the sequence terminates; returns every element, or throws its error.
    public func toArray() throws -> [Element] {
        try elementsOrThrow(materializeResult())
    }

    /// Blocks until the first element (then disposes the subscription) or termination;
    /// returns that element, `nil` for an empty sequence, or throws the error.
    public func first() throws -> Element? {
        try elementsOrThrow(materializeResult(max: 1)).first
    }

    /// Blocks until the sequence terminates; returns its last element, `nil` for an empty
    /// sequence, or throws its error.
    public func last() throws -> Element? {
        try elementsOrThrow(materializeResult()).last
    }

    /// Blocks until the sequence terminates or sends a second element; returns its only
    /// element. Throws `RxError.noElements` or `RxError.moreThanOneElement` otherwise.
    public func single() throws -> Element {
        try single { _ in true }
    }

    /// Blocks until the sequence terminates or sends a second element matching
    /// `predicate`; returns the only matching element. Throws `RxError.noElements` or
    /// `RxError.moreThanOneElement` otherwise, and what `predicate` throws.
    public func single(_ predicate: @escaping (Element) throws -> Bool) throws -> Element {
        let elements = try elementsOrThrow(materializeResult(max: 2, predicate: predicate))
        if elements.count > 1 {
            throw RxError.moreThanOneElement
        }
        guard let only = elements.first else {
            throw RxError.noElements
        }
        return only
    }

    /// Blocks until the sequence terminates and returns how it ended with the elements it
    /// sent: `.completed(elements:)`, or `.failed(elements:error:)` on an error or timeout.
    public func materialize() -> MaterializedSequenceResult<Element> {
        materializeResult()
    }
}

extension BlockingObservable {
    /// Subscribes, collects the elements that pass `predicate` until the sequence ends,
    /// `max` of them are collected, `predicate` throws or the timeout expires; then
    /// disposes the subscription.
    private func materializeResult(
        max: Int? = nil,
        predicate: @escaping (Element) throws -> Bool = { _ in true }
    ) -> MaterializedSequenceResult<Element> {
        let state = BlockingState<Element>()
        let subscription = SingleAssignmentDisposable()
        defer { subscription.dispose() }

        let wait = BlockingWait()
        let source = self.source
        let subscribe = {
            subscription.setDisposable(source.subscribe { event in
                // Nothing more once the answer is known (RxSwift does not even call the
                // predicate again).
                if state.isDone { return }
                let finished: Bool
                switch event {
                case .next(let element):
                    do {
                        finished = state.append(if: try predicate(element) ? element : nil, max: max)
                    } catch {
                        finished = state.finish(error)
                    }
                case .error(let error):
                    finished = state.finish(error)
                case .completed:
                    finished = state.finish(nil)
                }
                if finished {
                    subscription.dispose()
                    wait.stop()
                }
            })
        }
        // As RxSwift: subscribe inside the current-thread trampoline, so a source that
        // schedules its elements there (`of`, `from`, `repeatElement`...) sends them only
        // once `subscription` is set, and stopping early disposes it (an endless
        // synchronous source still ends).
        if CurrentThreadScheduler.isScheduleRequired {
            _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                subscribe()
                return Disposables.create()
            }
        } else {
            subscribe()
        }

        if !wait.wait(timeout: timeout) {
            _ = state.finish(RxError.timeout)
        }
        return state.result
    }

    private func elementsOrThrow(_ result: MaterializedSequenceResult<Element>) throws -> [Element] {
        switch result {
        case .completed(let elements): return elements
        case .failed(_, let error): throw error
        }
    }
}
