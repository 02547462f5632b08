import RxCore

extension Recorded {
    /// `next(element)` at `time`.
    public static func next<T>(_ time: TestTime, _ element: T) -> Recorded<Event<T>> where Value == Event<T> {
        Recorded(time: time, value: .next(element))
    }

    /// `completed` at `time`; `type` names the element type where inference cannot
    /// (`.completed(250, Int.self)`).
    public static func completed<T>(_ time: TestTime, _ type: T.Type = T.self) -> Recorded<Event<T>> where Value == Event<T> {
        Recorded(time: time, value: .completed)
    }

    /// `error(error)` at `time`; `type` names the element type where inference cannot
    /// (`.error(250, failure, Int.self)`).
    public static func error<T>(_ time: TestTime, _ error: Swift.Error, _ type: T.Type = T.self) -> Recorded<Event<T>> where Value == Event<T> {
        Recorded(time: time, value: .error(error))
    }
}

extension Recorded {
    /// The events as an array, so `Recorded.events(.next(210, 2), .completed(250))`
    /// infers the element type from the events.
    public static func events<T>(_ recordedEvents: Recorded<Event<T>>...) -> [Recorded<Event<T>>] where Value == Event<T> {
        events(recordedEvents)
    }

    /// The events as an array (the array form of ``events(_:)-variadic``).
    public static func events<T>(_ recordedEvents: [Recorded<Event<T>>]) -> [Recorded<Event<T>>] where Value == Event<T> {
        recordedEvents
    }
}
