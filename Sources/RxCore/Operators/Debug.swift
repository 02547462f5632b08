import Foundation

extension ObservableType {
    /// Prints every subscription, event and disposal with a timestamp and `identifier`
    /// (by default the call site's file, line and function), as RxSwift's `debug`. With
    /// `trimOutput`, an event description longer than 40 characters is shortened.
    public func debug(
        _ identifier: String? = nil,
        trimOutput: Bool = false,
        file: String = #file,
        line: UInt = #line,
        function: String = #function
    ) -> Observable<Element> {
        let name = identifier ?? "\((file as NSString).lastPathComponent):\(line) (\(function))"
        return Debug(source: asObservable(), identifier: name, trimOutput: trimOutput)
    }
}

private final class Debug<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let identifier: String
    private let trimOutput: Bool

    init(source: Observable<Element>, identifier: String, trimOutput: Bool) {
        self.source = source
        self.identifier = identifier
        self.trimOutput = trimOutput
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = DebugSink(identifier: identifier, trimOutput: trimOutput, observer: observer, cancel: cancel)
        sink.log("subscribed")
        let subscription = source.subscribe(node: sink)
        return (sink, subscription)
    }
}

private final class DebugSink<Element>: Sink<Element, Element> {
    private static var maxEventTextLength: Int { 40 }
    private let identifier: String
    private let trimOutput: Bool
    private let formatter: DateFormatter

    init(identifier: String, trimOutput: Bool, observer: ObserverNode<Element>, cancel: Cancelable) {
        self.identifier = identifier
        self.trimOutput = trimOutput
        formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
        super.init(observer: observer, cancel: cancel)
    }

    func log(_ content: String) {
        print("\(formatter.string(from: Date())): \(identifier) -> \(content)")
    }

    private func log(event: Event<Element>) {
        let text = "\(event)"
        let limit = Self.maxEventTextLength
        let shown = trimOutput && text.count > limit
            ? String(text.prefix(limit / 2)) + "..." + String(text.suffix(limit / 2))
            : text
        log("Event \(shown)")
    }

    override func onNext(_ element: Element) {
        log(event: .next(element))
        forwardNext(element)
    }

    override func onError(_ error: Swift.Error) {
        log(event: .error(error))
        forwardError(error)
        dispose()
    }

    override func onCompleted() {
        log(event: .completed)
        forwardCompleted()
        dispose()
    }

    override func dispose() {
        if !isDisposed {
            log("isDisposed")
        }
        super.dispose()
    }
}
