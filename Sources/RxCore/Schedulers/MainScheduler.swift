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
    fileprivate let numberEnqueued = Atomic<Int>(0)

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
    ///
    /// - Returns: the loop installed before, if any, for ``uninstall(_:restoring:)``.
    @discardableResult
    public static func install(_ runLoop: MainRunLoop?) -> MainRunLoop? {
        installed.exchange(runLoop)
    }

    /// Puts `previous` back, but only while `runLoop` is still the installed loop (so a
    /// loop stopping late cannot undo a newer install).
    public static func uninstall(_ runLoop: MainRunLoop, restoring previous: MainRunLoop?) {
        installed.replace(runLoop, with: previous)
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

    /// Traps unless called on the main loop's thread (as ``ensureRunningOnMainThread(errorMessage:)``).
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
        // Counts down when the work runs, or when a loop drops it unrun (its closure is
        // released), so a lost item cannot make `instance` defer forever.
        let token = alwaysDefers ? nil : EnqueuedToken(self)
        let work = UncheckedSendable((state, action))
        loop.execute {
            if !cancel.isDisposed {
                cancel.setDisposable(work.value.1(work.value.0))
            }
            token?.finish()
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

/// The installed loop. Read on every `MainScheduler.instance` schedule and every `Binder`
/// element, so reads take no lock: they load an atomic pointer to an immutable box.
///
/// A replaced box is never freed (a reader on another thread may still hold its pointer;
/// installs are rare, one box of a few dozen bytes each): `boxes` keeps every one, so none
/// looks leaked either. So that an old box cannot keep its loop alive, boxes hold the loop
/// weakly; `strong`, under a lock, keeps the installed loop alive while it is installed.
private final class InstalledRunLoop: @unchecked Sendable {
    private final class Box {
        weak var runLoop: MainRunLoop?
        init(_ runLoop: MainRunLoop) { self.runLoop = runLoop }
    }

    private let current = Atomic<UnsafeRawPointer?>(nil)
    private let lock = Lock.make()
    private var strong: MainRunLoop?
    private var boxes: [Box] = []

    /// A box for `runLoop`, kept for good. Under `lock`.
    private func box(_ runLoop: MainRunLoop?) -> UnsafeRawPointer? {
        guard let runLoop else { return nil }
        let box = Box(runLoop)
        boxes.append(box)
        return UnsafeRawPointer(Unmanaged.passUnretained(box).toOpaque())
    }

    private static func loop(_ pointer: UnsafeRawPointer?) -> MainRunLoop? {
        pointer.flatMap { Unmanaged<Box>.fromOpaque($0).takeUnretainedValue().runLoop }
    }

    func get() -> MainRunLoop? {
        Self.loop(current.load(ordering: .acquiring))
    }

    func exchange(_ newValue: MainRunLoop?) -> MainRunLoop? {
        lock.performLocked {
            let previous = strong
            strong = newValue
            current.store(box(newValue), ordering: .releasing)
            return previous
        }
    }

    func replace(_ expected: MainRunLoop, with newValue: MainRunLoop?) {
        lock.performLocked {
            guard strong === expected else { return }
            strong = newValue
            current.store(box(newValue), ordering: .releasing)
        }
    }
}

/// One enqueued item's share of `numberEnqueued`, given back exactly once.
private final class EnqueuedToken: @unchecked Sendable {
    private let scheduler: MainScheduler
    private let finished = Atomic<Bool>(false)

    init(_ scheduler: MainScheduler) {
        self.scheduler = scheduler
    }

    func finish() {
        if !finished.exchange(true, ordering: .acquiringAndReleasing) {
            scheduler.numberEnqueued.wrappingSubtract(1, ordering: .acquiringAndReleasing)
        }
    }

    deinit {
        finish()
    }
}
