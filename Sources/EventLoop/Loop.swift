import CLibUV
import RxCore
import Synchronization

/// A libuv event loop (`uv_loop_t`) and the thread that runs it.
///
/// The thread that calls ``run()`` becomes the *loop thread* until `run()` returns.
/// While it runs, the loop is RxCore's ``MainRunLoop``: `MainScheduler.instance` is the
/// loop thread.
///
/// **Thread safety.** ``run()``, ``stop()``, ``isLoopThread``, ``isRunning``,
/// ``execute(_:)`` and ``schedule(after:_:)`` may be called from any thread. Everything
/// else in this module (``LoopTimer``, ``TCPListener``, ``TCPConnection``,
/// ``SignalWatcher``, ``scheduleTimer(after:repeating:_:)``, `Wakeup.init`/`close`) is
/// *loop-confined*: call it on the loop thread, or before the loop first runs on the
/// thread that set it up, and its callbacks run on the loop thread. Loop-confined calls
/// check this with a `precondition` (one atomic load and `pthread_self`).
///
/// **Lifetime.** Every open handle (timer, listener, connection, signal watcher, wake-up)
/// keeps its loop alive until the handle's close callback has run. Close handles from
/// the loop before stopping it: a handle closed while the loop is not running finishes
/// closing, and frees its memory, only when the loop runs again.
///
/// The name is `EventLoop`, like the module; other types here have distinct names
/// (`LoopTimer`, not `Timer`) because a type named like its module cannot be used to
/// qualify names, so `EventLoop.Timer` could not disambiguate against `Foundation.Timer`.
public final class EventLoop: @unchecked Sendable {
    // @unchecked Sendable: the cross-thread state is `loopThread` (atomic) and `queued`/
    // `stopRequested` (behind `lock`); everything else is touched only on the loop thread.

    /// Bytes in the loop's shared read buffer: the most one read callback can deliver.
    public static let readBufferSize = 64 * 1024

    /// The libuv loop. Loop-confined.
    let uvLoop: UnsafeMutablePointer<uv_loop_t>

    /// One read buffer for every connection on this loop. libuv hands it to one read
    /// callback at a time and the callback consumes it synchronously, so an idle
    /// connection costs no buffer memory.
    let readBuffer: UnsafeMutableRawBufferPointer

    /// The async handle behind `execute` and `stop`. Not a `Wakeup`: that one retains its
    /// loop, and this one must not (it lives exactly as long as the loop).
    private let async: UnsafeMutablePointer<uv_async_t>

    /// The id of the thread inside `run()`, or 0.
    private let loopThread = Atomic<UInt>(0)

    private let lock = ThreadLock()
    private var queued: [@Sendable () -> Void] = []
    private var stopRequested = false
    /// The previous batch's array, kept (loop thread only) so a drain does not allocate.
    private var spareBatch: [@Sendable () -> Void] = []

    /// Creates a loop. It does nothing until some thread calls ``run()``.
    ///
    /// - Throws: ``UVError`` when libuv cannot create its polling file descriptors.
    public init() throws(UVError) {
        Self.ignoreBrokenPipeSignals()  // a peer's reset must not kill the process
        let uvLoop = UnsafeMutablePointer<uv_loop_t>.allocate(capacity: 1)
        uvLoop.initialize(to: uv_loop_t())
        let rc = uv_loop_init(uvLoop)
        guard rc == 0 else {
            uvLoop.deallocate()
            throw UVError(code: rc, operation: "create event loop")
        }
        self.uvLoop = uvLoop
        async = .allocate(capacity: 1)
        async.initialize(to: uv_async_t())
        readBuffer = .allocate(byteCount: Self.readBufferSize, alignment: 16)

        // Unretained: the loop owns both, and they never outlive it.
        let unretained = Unmanaged.passUnretained(self).toOpaque()
        uvLoop.pointee.data = unretained
        async.pointee.data = unretained
        // Cannot fail on a fresh loop: it only registers the handle with the loop's
        // already-created wake-up file descriptor.
        let asyncRC = uv_async_init(uvLoop, async, loopAsyncCallback)
        precondition(asyncRC == 0, "uv_async_init: \(UVError(code: asyncRC, operation: "create loop wake-up"))")
    }

    deinit {
        // Every other handle retains the loop until its close callback, so only our own
        // async handle (and handles that failed to open, closed without an owner) is left.
        uv_close(bindery_async_handle(async), nil)
        uv_run(uvLoop, UV_RUN_DEFAULT)
        let rc = uv_loop_close(uvLoop)
        // On failure, leak rather than free memory libuv may still point into.
        guard rc == 0 else {
            assertionFailure("uv_loop_close: \(UVError(code: rc, operation: "close event loop"))")
            return
        }
        async.deallocate()
        uvLoop.deallocate()
        readBuffer.deallocate()
    }

    /// The loop that owns a libuv loop pointer (from a handle's `loop` field).
    @inline(__always)
    static func from(_ uvLoop: UnsafeMutablePointer<uv_loop_t>) -> EventLoop {
        Unmanaged<EventLoop>.fromOpaque(uvLoop.pointee.data!).takeUnretainedValue()
    }

    // MARK: - Running

    /// Runs the loop on the calling thread until ``stop()``; the calling thread is the
    /// loop thread meanwhile.
    ///
    /// While it runs, the loop is installed as RxCore's main run loop
    /// (`MainScheduler.install`); the previous one is restored when `run()` returns.
    /// Work passed to ``execute(_:)`` before ``stop()`` was called runs before `run()`
    /// returns; work submitted later (or queued by that work) waits for the next `run()`.
    /// A loop may be run again after `run()` returns, but not by two threads at once
    /// (trapped).
    public func run() {
        let thread = currentThreadID()
        let (entered, _) = loopThread.compareExchange(
            expected: 0, desired: thread, ordering: .acquiringAndReleasing)
        precondition(entered, "EventLoop.run() called while the loop is already running")

        let previousMain = MainScheduler.install(self)

        uv_run(uvLoop, UV_RUN_DEFAULT)

        // One more pass for work that raced with the stop. One pass, not "until empty":
        // other threads may keep submitting, and run() must still return.
        _ = runQueuedWork()
        MainScheduler.uninstall(self, restoring: previousMain)
        lock.withLock { stopRequested = false }
        loopThread.store(0, ordering: .releasing)
    }

    /// Makes ``run()`` return after the work queued so far has run. Thread-safe; calling it
    /// before `run()` makes the next `run()` return at once.
    public func stop() {
        lock.withLock { stopRequested = true }
        uv_async_send(async)
    }

    /// `true` when called on the thread running this loop.
    public var isLoopThread: Bool {
        loopThread.load(ordering: .acquiring) == currentThreadID()
    }

    /// `true` while some thread is inside ``run()``.
    public var isRunning: Bool {
        loopThread.load(ordering: .acquiring) != 0
    }

    /// Traps unless on the loop thread, or the loop is not running (set-up before `run`).
    @inline(__always)
    func preconditionLoopConfined(_ function: StaticString = #function) {
        let owner = loopThread.load(ordering: .acquiring)
        precondition(owner == 0 || owner == currentThreadID(),
                     "\(function) is loop-confined: call it on the event loop thread")
    }

    // MARK: - Cross-thread work

    /// Runs `work` on the loop thread in a later loop turn. Thread-safe.
    ///
    /// Work from one thread runs in the order it was submitted. Wake-ups coalesce: only
    /// the submission that finds the queue empty wakes the loop, and one wake-up runs
    /// every closure queued at that moment (closures they queue run in the next turn).
    /// Work queued while the loop is not running waits for the next ``run()``; work still
    /// queued when the loop is deinitialized is dropped (its closures are released).
    public func execute(_ work: @escaping @Sendable () -> Void) {
        let wasEmpty = lock.withLock {
            queued.append(work)
            return queued.count == 1
        }
        if wasEmpty {
            uv_async_send(async)
        }
    }

    /// Runs the closures queued so far and returns whether `stop()` had been called.
    /// Loop thread only.
    ///
    /// The batch and the flag are read under one lock acquisition: if the flag is set,
    /// everything submitted before `stop()` is in this batch.
    private func runQueuedWork() -> Bool {
        var batch = spareBatch
        spareBatch = []
        let stop = lock.withLock {
            swap(&queued, &batch)
            return stopRequested
        }
        for work in batch {
            work()
        }
        batch.removeAll(keepingCapacity: batch.capacity <= 1024)
        spareBatch = batch
        return stop
    }

    /// The async callback: run the queued work, then honour `stop()`.
    fileprivate func wokeUp() {
        if runQueuedWork() {
            uv_stop(uvLoop)
        }
    }

    // MARK: - Timers

    /// Runs `handler` on the loop thread after `delay`, and then every `interval` if one is
    /// given. Loop-confined.
    ///
    /// A one-shot timer closes itself after firing; close a repeating one (or cancel a
    /// pending one) with ``LoopTimer/close(_:)``. The first firing happens no earlier than
    /// `delay` after this call, measured on the monotonic clock.
    @discardableResult
    public func scheduleTimer(after delay: Duration, repeating interval: Duration? = nil,
                              _ handler: @escaping () -> Void) -> LoopTimer {
        let timer = LoopTimer(loop: self)
        timer.closesAfterFiring = interval == nil
        timer.start(after: delay, repeating: interval, handler)
        return timer
    }
}

private let loopAsyncCallback: uv_async_cb = { handle in
    guard let handle, let data = handle.pointee.data else { return }
    Unmanaged<EventLoop>.fromOpaque(data).takeUnretainedValue().wokeUp()
}
