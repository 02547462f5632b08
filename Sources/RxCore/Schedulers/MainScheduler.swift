import Foundation
import Synchronization

/// The scheduler of the loop thread, where widget models live.
///
/// `instance` runs work at once when called on the loop thread with nothing of its own
/// in flight, and otherwise enqueues it on the loop; `asyncInstance` always defers to a
/// later loop turn. The loop is whichever ``MainRunLoop`` is installed (the libuv loop
/// while it runs); with none, the process main thread and main dispatch queue.
public final class MainScheduler: SchedulerType, @unchecked Sendable {
    /// The shared scheduler: synchronous on the loop thread when nothing is queued.
    public static let instance = MainScheduler()

    /// A scheduler that always runs work in a later loop turn.
    public static let asyncInstance = MainScheduler(alwaysDefers: true)

    private let alwaysDefers: Bool
    private let numberEnqueued = Atomic<Int>(0)

    /// A new scheduler bound to the main loop (it shares the loop, not the queue count).
    public convenience init() {
        self.init(alwaysDefers: false)
    }

    private init(alwaysDefers: Bool) {
        self.alwaysDefers = alwaysDefers
    }

    /// The current time.
    public var now: RxTime { Date() }

    // MARK: - The installed loop

    private static let installed = InstalledRunLoop()

    /// Makes `runLoop` the main loop; `nil` restores the main dispatch queue.
    public static func install(_ runLoop: MainRunLoop?) {
        installed.set(runLoop)
    }

    /// The loop work is sent to.
    public static var runLoop: MainRunLoop {
        installed.get() ?? DispatchMainRunLoop.shared
    }

    /// `true` on the main loop's thread.
    public static var isMainThread: Bool {
        runLoop.isLoopThread
    }

    /// Traps unless called on the main loop's thread. (RxSwift does nothing here on
    /// Linux; Bindery checks, because widget models are loop-confined.)
    public static func ensureRunningOnMainThread(errorMessage: String? = nil) {
        if !isMainThread {
            fatalError(errorMessage ?? "Executing on a thread other than the main loop's.")
        }
    }

    /// Traps when called on the main loop's thread.
    public static func ensureExecutingOnScheduler(errorMessage: String? = nil) {
        ensureRunningOnMainThread(errorMessage: errorMessage)
    }

    // MARK: - Scheduling

    /// Runs `action` at once when on the loop thread and nothing is in flight; else on
    /// the loop in a later turn.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let loop = Self.runLoop
        if !alwaysDefers {
            let previous = numberEnqueued.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue
            if previous == 0 && loop.isLoopThread {
                let disposable = action(state)
                numberEnqueued.wrappingSubtract(1, ordering: .acquiringAndReleasing)
                return disposable
            }
        }
        let cancel = SingleAssignmentDisposable()
        let work = UncheckedSendable((state, action))
        loop.execute { [self] in
            if !cancel.isDisposed {
                cancel.setDisposable(work.value.1(work.value.0))
            }
            if !alwaysDefers {
                numberEnqueued.wrappingSubtract(1, ordering: .acquiringAndReleasing)
            }
        }
        return cancel
    }

    /// Runs `body` at once and returns `true` when `schedule` would run it synchronously;
    /// else returns `false` having done nothing. Lets `Binder` skip the generic path.
    @inline(__always)
    func runIfImmediate(_ body: () -> Void) -> Bool {
        if alwaysDefers { return false }
        let previous = numberEnqueued.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue
        defer { numberEnqueued.wrappingSubtract(1, ordering: .acquiringAndReleasing) }
        guard previous == 0, Self.isMainThread else { return false }
        body()
        return true
    }

    /// Runs `action` on the loop after `dueTime`.
    public func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        if dueTime.nanosecondsValue == nil { return Disposables.create() }
        let result = SingleAssignmentDisposable()
        let work = UncheckedSendable((state, action))
        let timer = Self.runLoop.schedule(after: dueTime) {
            if !result.isDisposed {
                result.setDisposable(work.value.1(work.value.0))
            }
        }
        return Disposables.create(timer, result)
    }
}

/// The installed loop, behind a lock (installs are rare; reads are short).
private final class InstalledRunLoop: @unchecked Sendable {
    private let lock = Lock.make()
    private var runLoop: MainRunLoop?

    func get() -> MainRunLoop? {
        lock.performLocked { runLoop }
    }

    func set(_ newValue: MainRunLoop?) {
        lock.performLocked { runLoop = newValue }
    }
}
