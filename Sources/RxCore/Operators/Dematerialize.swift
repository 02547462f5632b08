extension ObservableType where Element: EventConvertible {
    /// Turns elements that are events back into events: `next(.next(x))` sends `x`,
    /// `next(.error(e))` fails with `e`, `next(.completed)` completes.
    public func dematerialize() -> Observable<Element.Element> {
        Dematerialize(source: asObservable())
    }
}

private final class Dematerialize<Source: EventConvertible>: Producer<Source.Element> {
    private let source: Observable<Source>

    init(source: Observable<Source>) {
        self.source = source
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = DematerializeSink<Source>(observer: observer, cancel: cancel)
        let subscription = source.subscribe(node: sink)
        return (sink, subscription)
    }
}

private final class DematerializeSink<Source: EventConvertible>: Sink<Source, Source.Element> {
    override func onNext(_ element: Source) {
        switch element.event {
        case .next(let value):
            forwardNext(value)
        case .error(let error):
            forwardError(error)
            dispose()
        case .completed:
            forwardCompleted()
            dispose()
        }
    }
}
