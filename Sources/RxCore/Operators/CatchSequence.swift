import Synchronization

extension ObservableType {
    /// The first sequence of `sequence`; each time the current one fails, the next one
    /// continues. The error of the last is forwarded; an empty `sequence` completes.
    public static func `catch`<Sequence: Swift.Sequence>(sequence: Sequence) -> Observable<Element>
        where Sequence.Element == Observable<Element> {
        CatchSequence(sources: AnySequence(sequence))
    }

    /// Renamed `catch(sequence:)` in RxSwift 6.
    @available(*, deprecated, renamed: "catch(sequence:)")
    public static func catchError<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Observable<Element>
        where Sequence.Element == Observable<Element> {
        `catch`(sequence: sequence)
    }
}

private final class CatchSequence<Element>: Producer<Element> {
    private let sources: AnySequence<Observable<Element>>

    init(sources: AnySequence<Observable<Element>>) {
        self.sources = sources
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = CatchSequenceSink(iterator: sources.makeIterator(), observer: observer, cancel: cancel)
        sink.scheduleNext()
        return (sink, sink.subscription)
    }
}

/// Moves to the next sequence on each error. A source that fails while being subscribed
/// would recurse once per source; a work-in-progress counter turns that into a loop (as
/// in `retry`).
private final class CatchSequenceSink<Element>: Sink<Element, Element> {
    let subscription = SerialDisposable()
    private var iterator: AnyIterator<Observable<Element>>
    private var lastError: Swift.Error?
    private let pending = Atomic<Int>(0)

    init(iterator: AnyIterator<Observable<Element>>, observer: ObserverNode<Element>, cancel: Cancelable) {
        self.iterator = iterator
        super.init(observer: observer, cancel: cancel)
    }

    func scheduleNext() {
        if pending.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue != 0 { return }
        repeat {
            subscribeNext()
        } while pending.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue != 0
    }

    private func subscribeNext() {
        if isDisposed { return }
        guard let next = iterator.next() else {
            if let lastError {
                forwardError(lastError)
            } else {
                forwardCompleted()
            }
            dispose()
            return
        }
        let current = SingleAssignmentDisposable()
        subscription.disposable = current
        current.setDisposable(next.subscribe(node: self))
    }

    override func onNext(_ element: Element) {
        forwardNext(element)
    }

    override func onError(_ error: Swift.Error) {
        lastError = error
        scheduleNext()
    }
}
