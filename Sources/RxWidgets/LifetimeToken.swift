import RxCore
import Synchronization

/// Reports its own deinitialisation, standing in for the Objective-C runtime that
/// RxCocoa's `rx.deallocated` relies on (Linux has none).
///
/// An object that stores a token in a constant and never hands it out dies together with
/// it, so the token's deinit is the owner's: adopt ``LifetimeTracked`` and the owner gets
/// `rx.deallocated`. Every widget and ``ViewController`` carries one.
public final class LifetimeToken: Sendable {
    // Created on first use: most widgets are never asked.
    private let subject = Mutex<ReplaySubject<Void>?>(nil)

    /// A token for a new owner.
    public init() {}

    /// Emits `()` and completes when the token (so its owner) is deinitialised; replays
    /// that to late subscribers, as RxCocoa's `deallocated` does.
    public var deallocated: Observable<Void> {
        subject.withLock { subject in
            if let subject { return subject.asObservable() }
            let created = ReplaySubject<Void>.create(bufferSize: 1)
            subject = created
            return created.asObservable()
        }
    }

    deinit {
        if let subject = subject.withLock({ $0 }) {
            subject.on(.next(()))
            subject.on(.completed)
        }
    }
}

/// An object whose deinitialisation can be observed as `rx.deallocated`, through the
/// ``LifetimeToken`` it owns.
///
/// ```swift
/// final class LoginViewController: ReactiveCompatible, LifetimeTracked {
///     let lifetimeToken = LifetimeToken()
/// }
/// ```
/// The token must be owned by this object only (a `let` that is never shared), or it
/// would report a later death than its owner's.
public protocol LifetimeTracked: AnyObject {
    /// The token that dies with this object.
    var lifetimeToken: LifetimeToken { get }
}

extension Reactive where Base: LifetimeTracked {
    /// Emits `()` then completes when `base` is deinitialised (replayed to late
    /// subscribers). Does not keep `base` alive.
    public var deallocated: Observable<Void> {
        base.lifetimeToken.deallocated
    }
}
