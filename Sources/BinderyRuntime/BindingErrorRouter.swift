import BinderyProtocol
import RxCore

/// Routes `Hooks.bindingErrorHandler` to the session whose event is being dispatched.
///
/// RxCore calls the hook when an error reaches a `Binder` or `bind(onNext:)`. While a
/// client's event runs (synchronously, on the loop), the errors are collected and that
/// client gets a `binding-failed` error instead of the patch; the session goes on.
/// Errors outside an event (a timer's binding) are logged. In strict mode (tests,
/// `BINDERY_STRICT=1`) any binding error is fatal, so bugs cannot hide.
///
/// The "current dispatch" is loop-confined state: it is only read on the main thread
/// (the hook may run on other threads; those errors are just logged).
package enum BindingErrorRouter {
    /// The errors of the events being dispatched, outermost first; each `collect` takes
    /// the ones after its mark. (A stack of marks, not of objects: nothing is allocated
    /// per event.)
    nonisolated(unsafe) private static var collected: [Error] = []
    nonisolated(unsafe) private static var depth = 0
    nonisolated(unsafe) private static var installed = false
    /// Fatal on any binding error.
    nonisolated(unsafe) static var strict = false
    /// Where errors outside an event go (the app's logger).
    package nonisolated(unsafe) static var log: (String) -> Void = { print("bindery: \($0)") }

    /// Points RxCore's hook here (once per process).
    static func install() {
        guard !installed else { return }
        installed = true
        Hooks.bindingErrorHandler = { error in
            if strict {
                fatalError("binding error in strict mode (BINDERY_STRICT): \(error)")
            }
            if depth > 0, MainScheduler.isMainThread {
                collected.append(error)
            } else {
                log("binding error outside a client event: \(error)")
            }
        }
    }

    /// Runs `body` collecting the binding errors it causes.
    static func collect<T>(_ body: () -> T) -> (result: T, bindingErrors: [Error]) {
        let mark = collected.count
        depth += 1
        let result = body()
        depth -= 1
        guard collected.count > mark else { return (result, []) }
        let errors = Array(collected[mark...])
        collected.removeSubrange(mark...)
        return (result, errors)
    }
}

/// What the hosts and sessions tell their store (metrics, binding errors). Loop-confined.
final class SessionHooks {
    let metrics: Metrics

    init(metrics: Metrics) {
        self.metrics = metrics
    }

    func collectBindingErrors<T>(_ body: () -> T) -> (result: T, bindingErrors: [Error]) {
        BindingErrorRouter.collect(body)
    }

    func bindingFailed(session: Session) {
        BindingErrorRouter.log("session \(session.shortID) (\(session.sceneName)): a binding failed")
    }
}
