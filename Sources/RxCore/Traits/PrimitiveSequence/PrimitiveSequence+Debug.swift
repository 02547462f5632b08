extension PrimitiveSequence {
    /// Prints the subscription, every event and the disposal, prefixed by `identifier`
    /// (by default the call site); see `ObservableType.debug`.
    public func debug(_ identifier: String? = nil, trimOutput: Bool = false, file: String = #file, line: UInt = #line, function: String = #function) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.debug(identifier, trimOutput: trimOutput, file: file, line: line, function: function))
    }
}
