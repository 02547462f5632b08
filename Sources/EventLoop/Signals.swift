import CLibUV
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a handler on the loop thread when the process receives one of some POSIX
/// signals (`uv_signal_t`); made for graceful shutdown on SIGINT and SIGTERM.
///
/// While a signal is watched its default action (for SIGINT/SIGTERM: terminating the
/// process) does not happen; libuv restores the default when the last watcher of that
/// signal closes. Several signals arriving before the loop turns may be delivered once.
///
/// Loop-confined (see ``EventLoop``). The watcher keeps itself and its loop alive until
/// ``close(_:)`` completes. By default it does not keep libuv's loop alive (the handles
/// are unreferenced), so a loop waiting only for signals is not kept busy by them.
public final class SignalWatcher {
    /// The loop the handler runs on.
    public let loop: EventLoop

    /// The watched signal numbers.
    public let signals: [Int32]

    private let handles: [UnsafeMutablePointer<uv_signal_t>]
    private var handler: ((Int32) -> Void)?
    private var onClosed: (() -> Void)?
    private var handlesOpen: Int

    /// `true` once ``close(_:)`` has been called.
    public private(set) var isClosed = false

    /// Watches `signals`; `handler` gets the signal number on the loop thread.
    /// Loop-confined.
    ///
    /// - Parameter keepsLoopAlive: whether the watcher counts as work keeping `uv_run`
    ///   from returning (libuv's ref/unref).
    /// - Throws: ``UVError``, e.g. for an invalid signal number.
    public init(loop: EventLoop, signals: [Int32], keepsLoopAlive: Bool = false,
                _ handler: @escaping (Int32) -> Void) throws(UVError) {
        loop.preconditionLoopConfined()
        var handles: [UnsafeMutablePointer<uv_signal_t>] = []
        do throws(UVError) {
            for signal in signals {
                let handle = UnsafeMutablePointer<uv_signal_t>.allocate(capacity: 1)
                handle.initialize(to: uv_signal_t())
                let rc = uv_signal_init(loop.uvLoop, handle)
                guard rc == 0 else {
                    handle.deallocate()
                    throw UVError(code: rc, operation: "watch signal \(signal)")
                }
                handles.append(handle)
                // data stays nil until every start succeeded; the callback ignores nil.
                try UVError.check(uv_signal_start(handle, signalCallback, signal), "watch signal \(signal)")
                if !keepsLoopAlive {
                    uv_unref(bindery_signal_handle(handle))
                }
            }
        } catch {
            for handle in handles {
                uv_close(bindery_signal_handle(handle), freeUnownedSignalHandle)
            }
            throw error
        }
        self.loop = loop
        self.signals = signals
        self.handles = handles
        self.handler = handler
        handlesOpen = handles.count
        // One retain per handle, each released by that handle's close callback.
        for handle in handles {
            handle.pointee.data = Unmanaged.passRetained(self).toOpaque()
        }
    }

    /// Watches SIGINT and SIGTERM (Ctrl-C, `kill`, a service manager's stop).
    /// Loop-confined.
    public static func termination(loop: EventLoop, _ handler: @escaping (Int32) -> Void) throws(UVError) -> SignalWatcher {
        try SignalWatcher(loop: loop, signals: [SIGINT, SIGTERM], handler)
    }

    /// Stops watching; `onClosed` runs on the loop thread once libuv has let go of every
    /// handle. Calling it again does nothing. Loop-confined.
    public func close(_ onClosed: (() -> Void)? = nil) {
        loop.preconditionLoopConfined()
        guard !isClosed else { return }
        isClosed = true
        handler = nil
        self.onClosed = onClosed
        for handle in handles {
            uv_close(bindery_signal_handle(handle), signalCloseCallback)
        }
    }

    fileprivate func deliver(_ signal: Int32) {
        handler?(signal)
    }

    fileprivate func handleDidClose() {
        handlesOpen -= 1
        if handlesOpen == 0 {
            let onClosed = self.onClosed
            self.onClosed = nil
            onClosed?()
        }
    }
}

private let signalCallback: uv_signal_cb = { handle, signal in
    guard let handle, let data = handle.pointee.data else { return }
    Unmanaged<SignalWatcher>.fromOpaque(data).takeUnretainedValue().deliver(signal)
}

private let signalCloseCallback: uv_close_cb = { handle in
    guard let handle, let data = handle.pointee.data else { return }
    let watcher = Unmanaged<SignalWatcher>.fromOpaque(data)
    UnsafeMutableRawPointer(handle).deallocate()
    watcher.takeUnretainedValue().handleDidClose()
    watcher.release()
}

private let freeUnownedSignalHandle: uv_close_cb = { handle in
    UnsafeMutableRawPointer(handle)?.deallocate()
}
