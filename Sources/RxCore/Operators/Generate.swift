extension ObservableType {
    /// Sends `initialState`, then each `iterate`d state, while `condition` holds; then
    /// `completed`. A throwing `condition` or `iterate` ends the sequence with its error.
    public static func generate(
        initialState: Element,
        condition: @escaping (Element) throws -> Bool,
        scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance,
        iterate: @escaping (Element) throws -> Element
    ) -> Observable<Element> {
        Generate(initialState: initialState, condition: condition, iterate: iterate, scheduler: scheduler)
    }
}

private final class Generate<Element>: Producer<Element> {
    private let initialState: Element
    private let condition: (Element) throws -> Bool
    private let iterate: (Element) throws -> Element
    private let scheduler: ImmediateSchedulerType

    init(initialState: Element, condition: @escaping (Element) throws -> Bool, iterate: @escaping (Element) throws -> Element, scheduler: ImmediateSchedulerType) {
        self.initialState = initialState
        self.condition = condition
        self.iterate = iterate
        self.scheduler = scheduler
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = GenerateSink(state: initialState, observer: observer, cancel: cancel)
        let (condition, iterate) = (self.condition, self.iterate)
        // The recursion carries only "is this the first step" (a concrete state keeps it
        // specialised); the generated state lives in the sink.
        let subscription = scheduler.scheduleRecursive(true) { isFirst, recurse in
            do {
                if !isFirst {
                    sink.state = try iterate(sink.state)
                }
                if try condition(sink.state) {
                    sink.forwardNext(sink.state)
                    recurse(false)
                } else {
                    sink.forwardCompleted()
                    sink.dispose()
                }
            } catch {
                sink.forwardError(error)
                sink.dispose()
            }
        }
        return (sink, subscription)
    }
}

/// Holds the generated state; only the recursion's steps, which run one at a time, touch it.
private final class GenerateSink<Element>: Sink<Never, Element> {
    var state: Element

    init(state: Element, observer: ObserverNode<Element>, cancel: Cancelable) {
        self.state = state
        super.init(observer: observer, cancel: cancel)
    }
}
