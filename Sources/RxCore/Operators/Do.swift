extension ObservableType {
    /// Runs side effects around this sequence's events and subscription, passing every
    /// event through.
    ///
    /// - `onNext`/`onError`/`onCompleted` run before the event is forwarded,
    ///   `afterNext`/`afterError`/`afterCompleted` after it. A throwing handler forwards
    ///   its error instead (or after the element, for `afterNext`) and ends the sequence.
    ///   **Bindery:** a throwing `afterError`/`afterCompleted` comes after the terminal
    ///   event, so its error goes to ``Hooks/defaultErrorHandler``, not downstream.
    /// - `onSubscribe` runs before subscribing to the source, `onSubscribed` after.
    /// - `onDispose` runs once the source subscription is disposed, for any reason.
    public func `do`(
        onNext: ((Element) throws -> Void)? = nil,
        afterNext: ((Element) throws -> Void)? = nil,
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Observable<Element> {
        Do(
            source: asObservable(),
            handlers: DoHandlers(
                onNext: onNext, afterNext: afterNext,
                onError: onError, afterError: afterError,
                onCompleted: onCompleted, afterCompleted: afterCompleted
            ),
            onSubscribe: onSubscribe,
            onSubscribed: onSubscribed,
            onDispose: onDispose
        )
    }
}

/// The per-event handlers, kept apart so the sink calls only the ones given, with no
/// `Event` built per element.
private struct DoHandlers<Element> {
    let onNext: ((Element) throws -> Void)?
    let afterNext: ((Element) throws -> Void)?
    let onError: ((Swift.Error) throws -> Void)?
    let afterError: ((Swift.Error) throws -> Void)?
    let onCompleted: (() throws -> Void)?
    let afterCompleted: (() throws -> Void)?
}

private final class Do<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let handlers: DoHandlers<Element>
    private let onSubscribe: (() -> Void)?
    private let onSubscribed: (() -> Void)?
    private let onDispose: (() -> Void)?

    init(source: Observable<Element>, handlers: DoHandlers<Element>, onSubscribe: (() -> Void)?, onSubscribed: (() -> Void)?, onDispose: (() -> Void)?) {
        self.source = source
        self.handlers = handlers
        self.onSubscribe = onSubscribe
        self.onSubscribed = onSubscribed
        self.onDispose = onDispose
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        onSubscribe?()
        let sink = DoSink(handlers: handlers, observer: observer, cancel: cancel)
        let subscription = source.subscribe(node: sink)
        onSubscribed?()
        guard let onDispose else {
            return (sink, subscription)
        }
        return (sink, Disposables.create {
            subscription.dispose()
            onDispose()
        })
    }
}

private final class DoSink<Element>: Sink<Element, Element> {
    private let handlers: DoHandlers<Element>

    init(handlers: DoHandlers<Element>, observer: ObserverNode<Element>, cancel: Cancelable) {
        self.handlers = handlers
        super.init(observer: observer, cancel: cancel)
    }

    override func onNext(_ element: Element) {
        do {
            try handlers.onNext?(element)
            forwardNext(element)
            try handlers.afterNext?(element)
        } catch {
            forwardError(error)
            dispose()
        }
    }

    override func onError(_ error: Swift.Error) {
        do {
            try handlers.onError?(error)
        } catch {
            forwardError(error)
            dispose()
            return
        }
        forwardError(error)
        runAfterTerminal { try handlers.afterError?(error) }
    }

    override func onCompleted() {
        do {
            try handlers.onCompleted?()
        } catch {
            forwardError(error)
            dispose()
            return
        }
        forwardCompleted()
        runAfterTerminal { try handlers.afterCompleted?() }
    }

    /// Runs an after-terminal handler, then disposes. The terminal event has gone
    /// downstream already, so a thrown error cannot follow it (the grammar allows one
    /// terminal event); it is reported instead of being lost.
    private func runAfterTerminal(_ handler: () throws -> Void) {
        do {
            try handler()
        } catch {
            Hooks.defaultErrorHandler([], error)
        }
        dispose()
    }
}
