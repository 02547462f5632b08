import BinderyProtocol
import BinderyRuntime

/// Viewer counts: how old a process's report is.
extension SharedSceneOwner {
    /// When the viewer count in inbox entry `id` was reported, on this process's clock.
    ///
    /// Not when it is read: a new owner first reads the backlog its predecessor left (up
    /// to a lease and a tick of reports), and a report read late must not count as fresh,
    /// or a process that died meanwhile stays counted for a whole lifetime after the
    /// takeover ("N online" several above the real number for seconds). The entry's age
    /// is measured against the newest entry read (both on Redis's clock, so the
    /// processes' clocks need not agree); every live process reports every tick, so the
    /// newest entry is at most a tick old once the backlog is read.
    func reportedAt(_ id: String) -> UInt64 {
        let now = SharedSceneTime.now()
        guard let entry = SharedSceneStreamID(id) else { return now }
        noteNewestInboxEntry(id)
        let age = (newestInboxMilliseconds - entry.milliseconds) * 1_000_000
        return now &- min(age, now)
    }

    /// Takes `id` as the newest inbox entry read so far if it is (a batch's last entry,
    /// noted before its older entries are aged against it).
    func noteNewestInboxEntry(_ id: String) {
        guard let entry = SharedSceneStreamID(id) else { return }
        newestInboxMilliseconds = max(newestInboxMilliseconds, entry.milliseconds)
    }
}
