/// When a test observable was subscribed and unsubscribed, in virtual time.
public struct Subscription: Equatable, Hashable, Sendable, CustomDebugStringConvertible {
    /// When the subscription started.
    public let subscribe: TestTime
    /// When it was disposed; `Int.max` while still subscribed.
    public let unsubscribe: TestTime

    /// A subscription still in place.
    public init(_ subscribe: TestTime) {
        self.init(subscribe, Int.max)
    }

    /// A subscription from `subscribe` to `unsubscribe`.
    public init(_ subscribe: TestTime, _ unsubscribe: TestTime) {
        self.subscribe = subscribe
        self.unsubscribe = unsubscribe
    }

    /// `(subscribe : unsubscribe)`, or `(subscribe : Infinity)` while subscribed (RxTest's text).
    public var debugDescription: String {
        let end = unsubscribe == Int.max ? "Infinity" : String(unsubscribe)
        return "(\(subscribe) : \(end))"
    }
}
