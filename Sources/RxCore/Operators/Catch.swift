extension ObservableType {
    /// Continues with the sequence `handler` returns when this one ends with an error; a
    /// throwing handler ends the result with its error.
    public func `catch`(_ handler: @escaping (Swift.Error) throws -> Observable<Element>) -> Observable<Element> {
        Catch(source: asObservable(), handler: handler)
    }

    /// Sends `element`, then completes, when this sequence ends with an error.
    public func catchAndReturn(_ element: Element) -> Observable<Element> {
        Catch(source: asObservable(), handler: { _ in Observable.just(element) })
    }

    /// Renamed `catch(_:)` in RxSwift 6.
    @available(*, deprecated, renamed: "catch(_:)")
    public func catchError(_ handler: @escaping (Swift.Error) throws -> Observable<Element>) -> Observable<Element> {
        `catch`(handler)
    }

    /// Renamed `catchAndReturn(_:)` in RxSwift 6.
    @available(*, deprecated, renamed: "catchAndReturn(_:)")
    public func catchErrorJustReturn(_ element: Element) -> Observable<Element> {
        catchAndReturn(element)
    }
}

private final class Catch<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let handler: (Swift.Error) throws -> Observable<Element>

    init(source: Observable<Element>, handler: @escaping (Swift.Error) throws -> Observable<Element>) {
        self.source = source
        self.handler = handler
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = CatchSink(handler: handler, observer: observer, cancel: cancel)
        let subscription = sink.run(source: source)
        return (sink, subscription)
    }
}

/// Observes the source, then the handler's sequence. The grammar serialises the two (the
/// second is subscribed only after the first's error), so no lock is needed.
private final class CatchSink<Element>: Sink<Element, Element> {
    private let handler: (Swift.Error) throws -> Observable<Element>
    private let subscription = SerialDisposable()
    /// Set once the source has failed; errors after that come from the handler's sequence.
    private var caught = false

    init(handler: @escaping (Swift.Error) throws -> Observable<Element>, observer: ObserverNode<Element>, cancel: Cancelable) {
        self.handler = handler
        super.init(observer: observer, cancel: cancel)
    }

    func run(source: Observable<Element>) -> Disposable {
        // Hold the source's subscription in its own slot first: a source failing during
        // `subscribe` sets the handler's subscription, which must not be replaced by the
        // source's when `subscribe` returns.
        let sourceSubscription = SingleAssignmentDisposable()
        subscription.disposable = sourceSubscription
        sourceSubscription.setDisposable(source.subscribe(node: self))
        return subscription
    }

    override func onNext(_ element: Element) {
        forwardNext(element)
    }

    override func onError(_ error: Swift.Error) {
        // A late error after dispose must not run the handler or subscribe anything.
        if isDisposed { return }
        if caught {
            forwardError(error)
            dispose()
            return
        }
        caught = true
        let fallback: Observable<Element>
        do {
            fallback = try handler(error)
        } catch {
            forwardError(error)
            dispose()
            return
        }
        subscription.disposable = fallback.subscribe(node: self)
    }
}
