/// Whether the `take(while:)` / `take(until:)` predicate forms also send the element that
/// ends the sequence.
public enum TakeBehavior: Sendable {
    /// Send the element that ends the sequence, then complete.
    case inclusive
    /// Complete without sending the element that ends the sequence.
    case exclusive
}

extension ObservableType {
    /// Sends elements while `predicate` holds; at the first element for which it fails,
    /// completes (sending that element too with `.inclusive`). A throwing predicate ends
    /// the sequence with its error.
    public func take(while predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive) -> Observable<Element> {
        TakeWhile(source: asObservable(), predicate: predicate, stopWhen: false, behavior: behavior)
    }

    /// Sends elements until `predicate` holds; at the first element for which it does,
    /// completes (sending that element too with `.inclusive`). A throwing predicate ends
    /// the sequence with its error.
    public func take(until predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive) -> Observable<Element> {
        TakeWhile(source: asObservable(), predicate: predicate, stopWhen: true, behavior: behavior)
    }

    /// Renamed `take(while:)` in RxSwift 6.
    @available(*, deprecated, renamed: "take(while:)")
    public func takeWhile(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        take(while: predicate)
    }
}

/// One producer for both predicate forms: the sequence stops at the first element whose
/// predicate result equals `stopWhen` (so neither form wraps the predicate in a closure).
private final class TakeWhile<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let predicate: (Element) throws -> Bool
    private let stopWhen: Bool
    private let behavior: TakeBehavior

    init(source: Observable<Element>, predicate: @escaping (Element) throws -> Bool, stopWhen: Bool, behavior: TakeBehavior) {
        self.source = source
        self.predicate = predicate
        self.stopWhen = stopWhen
        self.behavior = behavior
    }

    override func run(_ observer: ObserverNode<Element>, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) {
        let sink = TakeWhileSink(predicate: predicate, stopWhen: stopWhen, inclusive: behavior == .inclusive, observer: observer, cancel: cancel)
        let subscription = source.subscribe(node: sink)
        return (sink, subscription)
    }
}

private final class TakeWhileSink<Element>: Sink<Element, Element> {
    private let predicate: (Element) throws -> Bool
    private let stopWhen: Bool
    private let inclusive: Bool
    private var running = true

    init(predicate: @escaping (Element) throws -> Bool, stopWhen: Bool, inclusive: Bool, observer: ObserverNode<Element>, cancel: Cancelable) {
        self.predicate = predicate
        self.stopWhen = stopWhen
        self.inclusive = inclusive
        super.init(observer: observer, cancel: cancel)
    }

    override func onNext(_ element: Element) {
        guard running else { return }
        do {
            running = try predicate(element) != stopWhen
        } catch {
            forwardError(error)
            dispose()
            return
        }
        if running {
            forwardNext(element)
            return
        }
        if inclusive {
            forwardNext(element)
        }
        forwardCompleted()
        dispose()
    }
}
