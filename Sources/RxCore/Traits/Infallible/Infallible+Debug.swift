extension InfallibleType {
    /// Prints the subscription, every event and the disposal, prefixed by `identifier`
    /// (by default the call site).
    public func debug(_ identifier: String? = nil, trimOutput: Bool = false, file: String = #file, line: UInt = #line, function: String = #function) -> Infallible<Element> {
        // The Single-based printer is the trait one; an infallible is a maybe-shaped
        // sequence to it, since `debug` only looks at events.
        Infallible(Maybe(raw: asObservable()).debug(identifier, trimOutput: trimOutput, file: file, line: line, function: function).asObservable())
    }
}
