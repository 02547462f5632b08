extension ObservableType {
    /// At each element (and at the completion) of `sampler`, emits the latest element of
    /// this sequence if a new one arrived since the previous tick, otherwise `defaultValue`
    /// when given, otherwise nothing.
    ///
    /// Completes at the first sampler event after this sequence has completed; an error of
    /// either ends it.
    public func sample<Source: ObservableType>(_ sampler: Source, defaultValue: Element? = nil) -> Observable<Element> {
        Sample(source: asObservable(), sampler: sampler.asObservable(), defaultValue: defaultValue)
    }
}

private final class Sample<Element, SampleType>: Producer<Element> {
    private let source: Observable<Element>
    private let sampler: Observable<SampleType>
    private let defaultValue: Element?

    init(source: Observable<Element>, sampler: Observable<SampleType>, defaultValue: Element?) {
        self.source = source
        self.sampler = sampler
        self.defaultValue = defaultValue
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = SampleSink<Element, SampleType>(defaultValue: defaultValue, observer: observer, cancel: cancel)
        let subscription = sink.run(source: source, sampler: sampler)
        return (sink, subscription)
    }
}

/// Observes the source and keeps its latest unsampled element in a typed slot (no
/// `Optional<Element>` on the per-element path); ``SamplerObserver`` takes it at each tick.
private final class SampleSink<Element, SampleType>: Sink<Element, Element> {
    /// Recursive: elements are forwarded while it is held and may re-enter.
    let lock = Lock.make(recursive: true)
    private let defaultValue: Element?
    private let sourceSubscription = SingleAssignmentDisposable()

    // Guarded by `lock`.
    private let element = UnsafeMutablePointer<Element>.allocate(capacity: 1)
    private var hasElement = false
    private var atEnd = false

    init(defaultValue: Element?, observer: ObserverNode<Element>, cancel: Cancelable) {
        self.defaultValue = defaultValue
        super.init(observer: observer, cancel: cancel)
    }

    deinit {
        if hasElement { element.deinitialize(count: 1) }
        element.deallocate()
    }

    func run(source: Observable<Element>, sampler: Observable<SampleType>) -> Disposable {
        sourceSubscription.setDisposable(source.subscribe(node: self))
        let samplerSubscription = sampler.subscribe(node: SamplerObserver(parent: self))
        return Disposables.create(sourceSubscription, samplerSubscription)
    }

    override func onNext(_ value: Element) {
        lock.lock()
        if hasElement {
            element.pointee = value
        } else {
            element.initialize(to: value)
            hasElement = true
        }
        lock.unlock()
    }

    override func onError(_ error: Swift.Error) {
        lock.lock()
        forwardError(error)
        dispose()
        lock.unlock()
    }

    override func onCompleted() {
        lock.lock()
        atEnd = true
        sourceSubscription.dispose()
        lock.unlock()
    }

    /// A sampler tick (element or completion). Called with `lock` held.
    fileprivate func tick() {
        if hasElement {
            hasElement = false
            forwardNext(element.move())
        } else if let defaultValue {
            forwardNext(defaultValue)
        }
        if atEnd {
            forwardCompleted()
            dispose()
        }
    }
}

private final class SamplerObserver<Element, SampleType>: ObserverNode<SampleType> {
    private let parent: SampleSink<Element, SampleType>

    init(parent: SampleSink<Element, SampleType>) {
        self.parent = parent
    }

    override func onNext(_ element: SampleType) {
        let lock = parent.lock
        lock.lock()
        parent.tick()
        lock.unlock()
    }

    override func onError(_ error: Swift.Error) {
        let lock = parent.lock
        lock.lock()
        parent.forwardError(error)
        parent.dispose()
        lock.unlock()
    }

    override func onCompleted() {
        // RxSwift samples once more when the sampler completes, then completes only if the
        // source already has.
        let lock = parent.lock
        lock.lock()
        parent.tick()
        lock.unlock()
    }
}
