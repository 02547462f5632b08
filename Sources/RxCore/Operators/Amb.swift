import Synchronization

extension ObservableType {
    /// Whichever of this sequence and `right` sends an event first: from then on only its
    /// events are forwarded, and the other is disposed.
    public func amb<O2: ObservableType>(_ right: O2) -> Observable<Element> where O2.Element == Element {
        Amb(left: asObservable(), right: right.asObservable())
    }

    /// Whichever sequence of `sequence` sends an event first; the others are disposed.
    /// An empty collection never emits.
    public static func amb<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Observable<Element>
        where Sequence.Element == Observable<Element> {
        sequence.reduce(Observable<Element>.never()) { result, next in result.amb(next) }
    }
}

private final class Amb<Element>: Producer<Element> {
    private let left: Observable<Element>
    private let right: Observable<Element>

    init(left: Observable<Element>, right: Observable<Element>) {
        self.left = left
        self.right = right
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = AmbSink(observer: observer, cancel: cancel)
        let subscription = sink.run(left: left, right: right)
        return (sink, subscription)
    }
}

/// Which side won: 0 none yet, 1 left, 2 right; decided once, by compare-and-exchange, so
/// the loser's events race harmlessly. Nothing is disposed or forwarded under a lock.
private final class AmbSink<Element>: Sink<Never, Element> {
    private let choice = Atomic<Int>(0)
    private let leftSubscription = SingleAssignmentDisposable()
    private let rightSubscription = SingleAssignmentDisposable()

    func run(left: Observable<Element>, right: Observable<Element>) -> Disposable {
        leftSubscription.setDisposable(left.subscribe(node: AmbObserver(parent: self, side: 1)))
        rightSubscription.setDisposable(right.subscribe(node: AmbObserver(parent: self, side: 2)))
        return Disposables.create(leftSubscription, rightSubscription)
    }

    /// Whether `side` may forward: it won now (the other side is disposed) or before.
    func claim(_ side: Int) -> Bool {
        let (exchanged, current) = choice.compareExchange(expected: 0, desired: side, ordering: .acquiringAndReleasing)
        if exchanged {
            (side == 1 ? rightSubscription : leftSubscription).dispose()
            return true
        }
        return current == side
    }
}

private final class AmbObserver<Element>: ObserverNode<Element> {
    private let parent: AmbSink<Element>
    private let side: Int

    init(parent: AmbSink<Element>, side: Int) {
        self.parent = parent
        self.side = side
    }

    override func onNext(_ element: Element) {
        if parent.claim(side) { parent.forwardNext(element) }
    }

    override func onError(_ error: Swift.Error) {
        guard parent.claim(side) else { return }
        parent.forwardError(error)
        parent.dispose()
    }

    override func onCompleted() {
        guard parent.claim(side) else { return }
        parent.forwardCompleted()
        parent.dispose()
    }
}
