import Foundation

/// A scheduler over a virtual clock: work runs in time order (then in scheduling order)
/// when ``start()`` or ``advanceTo(_:)`` is called, with no real waiting.
///
/// Not thread-safe: drive it from one thread, as tests do.
open class VirtualTimeScheduler<Converter: VirtualTimeConverterType>: SchedulerType {
    #if TRACE_RESOURCES
    private let resourceToken = ResourceToken()
    #endif
    /// A point in virtual time.
    public typealias VirtualTime = Converter.VirtualTimeUnit
    /// A span of virtual time.
    public typealias VirtualTimeInterval = Converter.VirtualTimeIntervalUnit

    private var running = false
    private var nextId = 0
    private var queue: VirtualSchedulerQueue<VirtualTime>
    private let converter: Converter

    /// The virtual clock.
    public private(set) var clock: VirtualTime

    /// The clock as real time.
    public var now: RxTime {
        converter.convertFromVirtualTime(clock)
    }

    /// A scheduler whose clock starts at `initialClock`.
    public init(initialClock: VirtualTime, converter: Converter) {
        self.clock = initialClock
        self.converter = converter
        self.queue = VirtualSchedulerQueue { converter.compareVirtualTime($0, $1) }
    }

    /// Schedules `action` at the current virtual time.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        scheduleRelative(state, dueTime: .microseconds(0), action: action)
    }

    /// Schedules `action` after a real-time span converted to virtual time.
    public func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        if dueTime.nanosecondsValue == nil { return Disposables.create() }
        let time = converter.convertToVirtualTime(now.adding(dueTime))
        return scheduleAbsoluteVirtual(state, time: adjustScheduledTime(time), action: action)
    }

    /// Schedules `action` after a virtual span.
    public func scheduleRelativeVirtual<StateType>(_ state: StateType, dueTime: VirtualTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        scheduleAbsoluteVirtual(state, time: converter.offsetVirtualTime(clock, offset: dueTime), action: action)
    }

    /// Schedules `action` at virtual time `time`.
    public func scheduleAbsoluteVirtual<StateType>(_ state: StateType, time: VirtualTime, action: @escaping (StateType) -> Disposable) -> Disposable {
        let item = VirtualSchedulerItem(time: time, id: nextId) { action(state) }
        nextId += 1
        queue.insert(item)
        return item
    }

    /// Adjusts the time of relative scheduling; subclasses may add a processing delay.
    open func adjustScheduledTime(_ time: VirtualTime) -> VirtualTime {
        time
    }

    /// Runs every scheduled item in order until none is left or ``stop()`` is called.
    public func start() {
        if running { return }
        running = true
        while running, let next = findNext() {
            if converter.compareVirtualTime(next.time, clock).greaterThan {
                clock = next.time
            }
            queue.removeFirst()
            next.invoke()
        }
        running = false
    }

    /// Runs the items due up to `virtualTime`, then sets the clock to it.
    public func advanceTo(_ virtualTime: VirtualTime) {
        precondition(!running, "VirtualTimeScheduler: advanceTo while already running")
        running = true
        while running, let next = findNext() {
            if converter.compareVirtualTime(next.time, virtualTime).greaterThan { break }
            if converter.compareVirtualTime(next.time, clock).greaterThan {
                clock = next.time
            }
            queue.removeFirst()
            next.invoke()
        }
        clock = virtualTime
        running = false
    }

    /// Moves the clock forward by `virtualInterval` without running anything.
    public func sleep(_ virtualInterval: VirtualTimeInterval) {
        let sleepTo = converter.offsetVirtualTime(clock, offset: virtualInterval)
        precondition(!converter.compareVirtualTime(sleepTo, clock).lessThan, "VirtualTimeScheduler: cannot sleep backwards")
        clock = sleepTo
    }

    /// Stops ``start()`` after the current item.
    public func stop() {
        running = false
    }

    private func findNext() -> VirtualSchedulerItem<VirtualTime>? {
        while let front = queue.first {
            if front.isDisposed {
                queue.removeFirst()
                continue
            }
            return front
        }
        return nil
    }
}

/// One scheduled unit of virtual-time work.
final class VirtualSchedulerItem<Time>: Cancelable {
    let time: Time
    let id: Int
    private var action: (() -> Disposable)?
    private let disposable = SingleAssignmentDisposable()

    init(time: Time, id: Int, action: @escaping () -> Disposable) {
        self.time = time
        self.id = id
        self.action = action
    }

    var isDisposed: Bool { disposable.isDisposed }

    func invoke() {
        guard let action, !disposable.isDisposed else { return }
        self.action = nil
        disposable.setDisposable(action())
    }

    func dispose() {
        action = nil
        disposable.dispose()
    }
}

/// A binary min-heap ordered by (time, id), so equal times run in scheduling order.
struct VirtualSchedulerQueue<Time> {
    private var heap: [VirtualSchedulerItem<Time>] = []
    private let compare: (Time, Time) -> VirtualTimeComparison

    init(compare: @escaping (Time, Time) -> VirtualTimeComparison) {
        self.compare = compare
    }

    var first: VirtualSchedulerItem<Time>? { heap.first }

    private func precedes(_ a: VirtualSchedulerItem<Time>, _ b: VirtualSchedulerItem<Time>) -> Bool {
        switch compare(a.time, b.time) {
        case .lessThan: return true
        case .greaterThan: return false
        case .equal: return a.id < b.id
        }
    }

    mutating func insert(_ item: VirtualSchedulerItem<Time>) {
        heap.append(item)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    mutating func removeFirst() {
        guard !heap.isEmpty else { return }
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count && precedes(heap[left], heap[smallest]) { smallest = left }
            if right < heap.count && precedes(heap[right], heap[smallest]) { smallest = right }
            if smallest == parent { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
