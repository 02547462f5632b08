/// Makes the scheduler that `Driver` and `Signal` deliver on; tests swap it with ``mock(scheduler:action:)``.
public enum SharingScheduler {
    private static let storage = MakeStorage()

    /// Makes the delivery scheduler (a `MainScheduler` unless mocked).
    public static var make: () -> SchedulerType {
        storage.get()
    }

    /// Runs `action` with `scheduler` as the delivery scheduler.
    public static func mock(scheduler: SchedulerType, action: () throws -> Void) rethrows {
        try mock(makeScheduler: { scheduler }, action: action)
    }

    /// Runs `action` with `makeScheduler` making the delivery scheduler.
    public static func mock(makeScheduler: @escaping () -> SchedulerType, action: () throws -> Void) rethrows {
        let original = storage.get()
        storage.set(makeScheduler)
        defer { storage.set(original) }
        try action()
    }
}

private final class MakeStorage: @unchecked Sendable {
    private let lock = Lock.make()
    private var make: () -> SchedulerType = { MainScheduler() }

    func get() -> () -> SchedulerType {
        lock.performLocked { make }
    }

    func set(_ newValue: @escaping () -> SchedulerType) {
        lock.performLocked { make = newValue }
    }
}
