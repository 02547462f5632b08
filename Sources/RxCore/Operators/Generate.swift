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
        let sink = GenerateSink<Element>(observer: observer, cancel: cancel)
        let (condition, iterate) = (self.condition, self.iterate)
        // The state rides in the recursion: (state, isFirst).
        let subscription = scheduler.scheduleRecursive((initialState, true)) { step, recurse in
            do {
                let state = step.1 ? step.0 : try iterate(step.0)
                if try condition(state) {
                    sink.forwardNext(state)
                    recurse((state, false))
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

private final class GenerateSink<Element>: Sink<Never, Element> {}
