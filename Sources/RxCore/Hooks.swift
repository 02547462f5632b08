/// Global hooks, as in RxSwift.
public enum Hooks {
    /// Handles errors that reach a subscriber without `onError`.
    public typealias DefaultErrorHandler = (_ subscriptionCallStack: [String], _ error: Swift.Error) -> Void

    /// Captures the call stack at subscription time.
    public typealias CustomCaptureSubscriptionCallstack = () -> [String]

    private static let storage = HookStorage()

    /// Called for an error with no `onError` handler. The default prints it; it never traps.
    public static var defaultErrorHandler: DefaultErrorHandler {
        get { storage.read { $0.errorHandler } }
        set { storage.write { $0.errorHandler = newValue } }
    }

    /// Captures a call stack when ``recordCallStackOnError`` is on. The default returns none.
    public static var customCaptureSubscriptionCallstack: CustomCaptureSubscriptionCallstack {
        get { storage.read { $0.captureCallstack } }
        set { storage.write { $0.captureCallstack = newValue } }
    }

    /// Called when a binding (`bind(onNext:)`, a `Binder`) receives an error. RxSwift traps
    /// in debug builds; a server hosting other sessions must not, so the default prints
    /// and the server layer reports it to the session's client (trapping only in its
    /// strict test mode).
    public static var bindingErrorHandler: (Swift.Error) -> Void {
        get { storage.read { $0.bindingErrorHandler } }
        set { storage.write { $0.bindingErrorHandler = newValue } }
    }

    /// Whether subscriptions record a call stack for ``defaultErrorHandler``.
    public static var recordCallStackOnError: Bool {
        get { storage.read { $0.recordCallStack } }
        set { storage.write { $0.recordCallStack = newValue } }
    }
}

private final class HookStorage: @unchecked Sendable {
    struct Values {
        var errorHandler: Hooks.DefaultErrorHandler = { stack, error in
            var message = "Unhandled error happened: \(error)"
            if !stack.isEmpty {
                message += "\n subscription called from:\n" + stack.joined(separator: "\n")
            }
            print(message)
        }
        var captureCallstack: Hooks.CustomCaptureSubscriptionCallstack = { [] }
        var recordCallStack = false
        var bindingErrorHandler: (Swift.Error) -> Void = { error in
            print("Binding error: \(error)")
        }
    }

    private let lock = Lock.make()
    private var values = Values()

    func read<T>(_ body: (Values) -> T) -> T {
        lock.performLocked { body(values) }
    }

    func write(_ body: (inout Values) -> Void) {
        lock.performLocked { body(&values) }
    }
}
