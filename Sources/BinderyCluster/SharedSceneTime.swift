import Dispatch

/// The monotonic clock the shared-scene link's deadlines use (leases, frames, viewer
/// counts), in nanoseconds. Pure.
enum SharedSceneTime {
    /// Now, in nanoseconds since an arbitrary start.
    static func now() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }

    /// `duration` in nanoseconds (0 for a negative one).
    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let components = duration.components
        return UInt64(max(0, components.seconds)) * 1_000_000_000 + UInt64(max(0, components.attoseconds) / 1_000_000_000)
    }
}
