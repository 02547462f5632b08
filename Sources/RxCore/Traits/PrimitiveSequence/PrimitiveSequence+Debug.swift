import Foundation

extension PrimitiveSequence {
    /// Prints the subscription, every event and the disposal, prefixed by `identifier`
    /// (by default the call site).
    public func debug(_ identifier: String? = nil, trimOutput: Bool = false, file: String = #file, line: UInt = #line, function: String = #function) -> PrimitiveSequence<Trait, Element> {
        let name = identifier ?? "\((file as NSString).lastPathComponent):\(line) (\(function))"
        let source = self.source
        return PrimitiveSequence(raw: Observable.create { observer in
            traitDebugLog(name, "subscribed")
            let subscription = source.subscribe { event in
                var description = "Event \(event)"
                if trimOutput, description.count > 40 {
                    description = String(description.prefix(40)) + "..."
                }
                traitDebugLog(name, description)
                observer.on(event)
            }
            return Disposables.create {
                traitDebugLog(name, "isDisposed")
                subscription.dispose()
            }
        })
    }
}

/// One `debug` line: time, identifier, message (RxSwift's layout).
private func traitDebugLog(_ identifier: String, _ message: String) {
    let formatter = DateFormatter()
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
    print("\(formatter.string(from: Date())): \(identifier) -> \(message)")
}
