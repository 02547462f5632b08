#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension EventLoop {
    /// Ignores `SIGPIPE` for the whole process (idempotent; every ``EventLoop/init()``
    /// calls it).
    ///
    /// Why: libuv writes to sockets with `write(2)`, and a write to a connection the peer
    /// has already reset raises `SIGPIPE`, whose default action kills the process. One
    /// client that sends a request and resets before the answer would take every session
    /// down with it. Ignored, the write fails with `EPIPE`, which libuv hands to the
    /// write's callback and the connection closes like any other failed one.
    public static func ignoreBrokenPipeSignals() {
        _ = signal(SIGPIPE, SIG_IGN)
    }
}
