import BinderyProtocol
import EventLoop
import Foundation

/// Shared-scene streams in memory, for several ``SharedSceneCluster`` members in one
/// process (tests, no Redis): give the same instance to each member.
///
/// The same semantics as ``RedisSharedSceneStreams``: stream ids `<ms>-<seq>` that only
/// grow, reads strictly after an id, the outbox trimmed to `outboxMaxLength` entries
/// (exactly, where Redis's `~` keeps whole nodes of 100 entries: a batch longer than the
/// outbox loses its head before anyone reads it), the inbox to `maxLength` and up to a
/// commit's last applied id, commits refused under a stale epoch with nothing written,
/// leases that expire on ``clock``. Completions run at the end of the loop turn, in the
/// order of the calls, as Redis's pipeline answers them.
///
/// For tests it can also hold one member's outbox reads back (``holdOutbox(_:for:)``),
/// take a lease behind its holder's back (``seizeLease(scene:holder:duration:)``), let a
/// lease run out (``expireLease(scene:)``) and refuse everything (``isAvailable``).
/// Loop-confined.
package final class InMemorySharedSceneStreams: SharedSceneStreams {
    /// One stream entry with its id parsed for ordering.
    private struct Entry {
        let milliseconds: UInt64
        let sequence: UInt64
        let entry: SharedSceneStreamEntry
    }

    /// An ordered stream of entries.
    private struct Stream {
        var entries: [Entry] = []
        var last: (milliseconds: UInt64, sequence: UInt64) = (0, 0)

        /// Entries after `id`, up to `count`.
        func after(_ id: String, count: Int) -> [SharedSceneStreamEntry] {
            let after = InMemorySharedSceneStreams.parse(id) ?? (0, 0)
            var found: [SharedSceneStreamEntry] = []
            // The first entry after `id` by binary search: a reader near the end skips the rest.
            var low = 0
            var high = entries.count
            while low < high {
                let middle = (low + high) / 2
                if (entries[middle].milliseconds, entries[middle].sequence) > after { high = middle } else { low = middle + 1 }
            }
            var index = low
            while index < entries.count, found.count < count {
                found.append(entries[index].entry)
                index += 1
            }
            return found
        }
    }

    /// Everything one scene has.
    private struct Scene {
        var holder: String?
        var leaseEnds: UInt64 = 0
        var epoch: Int64 = 0
        var inbox = Stream()
        var outbox = Stream()
        var snapshot = SharedSceneSnapshot.none
    }

    private let loop: EventLoop
    private let maxLength: Int
    private let outboxMaxLength: Int
    private var scenes: [String: Scene] = [:]
    /// Completions owed, run in order at the end of the turn.
    private var completions: [() -> Void] = []
    private var hook: EndOfTurnHook?
    private var readers: [ObjectIdentifier: Reader] = [:]
    private var held: Set<String> = []

    /// Milliseconds on the streams' clock: stream ids and lease expiry. Wall-clock time by
    /// default; a test may drive it (it must never go back).
    package var clock: () -> UInt64 = { UInt64(Date().timeIntervalSince1970 * 1000) }

    /// When false, every operation fails with ``SharedSceneStreamError/unavailable(_:)``
    /// (the store is away); waiting reads are not answered until it is back.
    package var isAvailable = true {
        didSet { if isAvailable { wakeReaders() } }
    }

    /// Streams bounded as Redis's are by default (``SharedSceneCluster/Configuration``).
    package init(loop: EventLoop, maxLength: Int = 100_000, outboxMaxLength: Int = 10_000) {
        self.loop = loop
        self.maxLength = maxLength
        self.outboxMaxLength = outboxMaxLength
    }

    // MARK: - For tests

    /// Holds `processID`'s outbox reads back (true) or delivers what they wait for (false):
    /// that member falls behind the outbox, then catches up.
    package func holdOutbox(_ isHeld: Bool, for processID: String) {
        if isHeld { held.insert(processID) } else if held.remove(processID) != nil { wakeReaders() }
    }

    /// Gives `scene`'s lease to `holder` and bumps the epoch, whoever held it (a process
    /// that was paused lost it): the new epoch.
    @discardableResult
    package func seizeLease(scene: String, holder: String, duration: Duration) -> Int64 {
        scenes[scene, default: Scene()].holder = holder
        scenes[scene]!.leaseEnds = clock() + Self.milliseconds(duration)
        scenes[scene]!.epoch += 1
        return scenes[scene]!.epoch
    }

    /// Lets `scene`'s lease run out now.
    package func expireLease(scene: String) {
        scenes[scene]?.holder = nil
    }

    /// Who holds `scene`'s lease and the epoch (nil holder: nobody, or it ran out).
    package func lease(scene: String) -> (holder: String?, epoch: Int64) {
        let state = scenes[scene] ?? Scene()
        return (state.holder.flatMap { state.leaseEnds > clock() ? $0 : nil }, state.epoch)
    }

    /// `scene`'s outbox entries, oldest first.
    package func outbox(scene: String) -> [SharedSceneStreamEntry] {
        (scenes[scene]?.outbox.entries ?? []).map(\.entry)
    }

    /// `scene`'s inbox entries, oldest first.
    package func inbox(scene: String) -> [SharedSceneStreamEntry] {
        (scenes[scene]?.inbox.entries ?? []).map(\.entry)
    }

    /// `scene`'s snapshot as last committed.
    package func snapshot(scene: String) -> SharedSceneSnapshot {
        scenes[scene]?.snapshot ?? .none
    }

    // MARK: - Lease

    package func acquireLease(scene: String, holder: String, duration: Duration,
                              _ done: @escaping (Result<Int64?, SharedSceneStreamError>) -> Void) {
        guard isAvailable else { return refuse(done) }
        var state = scenes[scene] ?? Scene()
        let now = clock()
        var epoch: Int64?
        if state.holder == nil || state.leaseEnds <= now {
            state.holder = holder
            state.leaseEnds = now + Self.milliseconds(duration)
            state.epoch += 1
            epoch = state.epoch
        }
        scenes[scene] = state
        answer { done(.success(epoch)) }
    }

    package func renewLease(scene: String, holder: String, epoch: Int64, duration: Duration,
                            _ done: @escaping (Result<Bool, SharedSceneStreamError>) -> Void) {
        guard isAvailable else { return refuse(done) }
        let now = clock()
        var renewed = false
        if var state = scenes[scene], state.holder == holder, state.leaseEnds > now, state.epoch == epoch {
            state.leaseEnds = now + Self.milliseconds(duration)
            scenes[scene] = state
            renewed = true
        }
        answer { done(.success(renewed)) }
    }

    package func releaseLease(scene: String, holder: String) {
        guard isAvailable, scenes[scene]?.holder == holder else { return }
        scenes[scene]?.holder = nil
    }

    // MARK: - Inbox

    package func appendEvent(scene: String, origin: String, forwardID: Int, session: String, event: String,
                             _ done: @escaping (Result<Void, SharedSceneStreamError>) -> Void) {
        guard isAvailable else { return refuse(done) }
        append(to: .inbox, of: scene, [("k", "e"), ("o", origin), ("f", String(forwardID)), ("s", session), ("m", event)],
               maxLength: maxLength)
        answer { done(.success(())) }
    }

    package func appendViewerCount(scene: String, origin: String, count: Int,
                                   _ done: @escaping (Result<Void, SharedSceneStreamError>) -> Void) {
        guard isAvailable else { return refuse(done) }
        append(to: .inbox, of: scene, [("k", "c"), ("o", origin), ("n", String(count))], maxLength: maxLength)
        answer { done(.success(())) }
    }

    // MARK: - Snapshot and commits

    package func readSnapshot(scene: String, _ done: @escaping (Result<SharedSceneSnapshot, SharedSceneStreamError>) -> Void) {
        guard isAvailable else { return refuse(done) }
        let snapshot = snapshot(scene: scene)
        answer { done(.success(snapshot)) }
    }

    package func commit(scene: String, _ batch: SharedSceneCommit,
                        _ done: @escaping (Result<Void, SharedSceneStreamError>) -> Void) {
        guard isAvailable else { return refuse(done) }
        guard scenes[scene]?.epoch == batch.epoch else {
            return answer { done(.failure(.fenced(epoch: batch.epoch))) }
        }
        var last: String?
        for (index, record) in batch.entries.enumerated() {
            var fields = [("v", String(record.version)), ("o", record.origin), ("f", record.forwardID),
                          ("a", record.answer), ("p", record.patch)]
            // The batch's last entry names the last applied inbox entry (as the script does).
            if index == batch.entries.count - 1 { fields.append(("i", batch.inboxID)) }
            last = append(to: .outbox, of: scene, fields, maxLength: outboxMaxLength, waking: false)
        }
        if let snapshot = batch.snapshot {
            let previous = scenes[scene]!.snapshot.widgets == nil ? "0-0" : scenes[scene]!.snapshot.outboxID
            let out = last ?? scenes[scene]!.outbox.entries.last?.entry.id ?? previous
            scenes[scene]!.snapshot = SharedSceneSnapshot(
                epoch: batch.epoch, inboxID: batch.inboxID, version: batch.version, widgets: snapshot.widgets,
                counts: snapshot.counts, state: snapshot.state, outboxID: out)
        }
        // XTRIM MINID: what is older than the last applied inbox entry goes.
        if let minimum = Self.parse(batch.inboxID) {
            scenes[scene]!.inbox.entries.removeAll { ($0.milliseconds, $0.sequence) < minimum }
        }
        answer { done(.success(())) }
        // The script is atomic: a reader gets the whole batch, never part of it.
        wakeReaders(of: scene, .outbox)
    }

    // MARK: - Outbox

    package func readOutbox(scene: String, after id: String, count: Int,
                            _ done: @escaping (Result<[SharedSceneStreamEntry], SharedSceneStreamError>) -> Void) {
        guard isAvailable else { return refuse(done) }
        let entries = scenes[scene]?.outbox.after(id, count: count) ?? []
        answer { done(.success(entries)) }
    }

    package func newestOutboxID(scene: String, _ done: @escaping (Result<String?, SharedSceneStreamError>) -> Void) {
        guard isAvailable else { return refuse(done) }
        let id = scenes[scene]?.outbox.entries.last?.entry.id
        answer { done(.success(id)) }
    }

    package func openReader(_ stream: SharedSceneStream, scene: String, for reader: String) -> any SharedSceneStreamReader {
        let opened = Reader(streams: self, stream: stream, scene: scene, processID: reader)
        readers[ObjectIdentifier(opened)] = opened
        return opened
    }

    /// Nothing to close: the streams outlive any one member.
    package func close() {}

    // MARK: - Readers

    /// A reader's waiting read: answered when entries come (or after a second with none).
    private final class Reader: SharedSceneStreamReader {
        weak var streams: InMemorySharedSceneStreams?
        let stream: SharedSceneStream
        let scene: String
        let processID: String
        var waiting: (after: String, count: Int, done: (Result<[SharedSceneStreamEntry], SharedSceneStreamError>) -> Void,
                      timer: LoopTimer)?

        init(streams: InMemorySharedSceneStreams, stream: SharedSceneStream, scene: String, processID: String) {
            self.streams = streams
            self.stream = stream
            self.scene = scene
            self.processID = processID
        }

        func read(after id: String, count: Int,
                  _ done: @escaping (Result<[SharedSceneStreamEntry], SharedSceneStreamError>) -> Void) {
            // One read at a time, as the link reads (a second one while waiting is dropped).
            guard let streams, waiting == nil else { return }
            // XREAD BLOCK 1000: an empty answer after a second with nothing.
            let timer = streams.loop.scheduleTimer(after: .seconds(1)) { [weak self] in
                guard let self, let waiting = self.waiting else { return }
                self.waiting = nil
                waiting.done(.success([]))
            }
            waiting = (id, count, done, timer)
            streams.serve(self)
        }

        func close() {
            waiting?.timer.close()
            waiting = nil
            streams?.readers[ObjectIdentifier(self)] = nil
        }
    }

    /// Answers `reader`'s waiting read if it has entries to read and is not held back.
    private func serve(_ reader: Reader) {
        guard isAvailable, let waiting = reader.waiting else { return }
        if reader.stream == .outbox, held.contains(reader.processID) { return }
        let state = scenes[reader.scene] ?? Scene()
        let entries = (reader.stream == .inbox ? state.inbox : state.outbox).after(waiting.after, count: waiting.count)
        guard !entries.isEmpty else { return }
        waiting.timer.close()
        reader.waiting = nil
        answer { waiting.done(.success(entries)) }
    }

    private func wakeReaders() {
        for reader in readers.values { serve(reader) }
    }

    private func wakeReaders(of scene: String, _ stream: SharedSceneStream) {
        for reader in readers.values where reader.scene == scene && reader.stream == stream { serve(reader) }
    }

    // MARK: - Helpers

    /// Appends an entry with a new id (the clock's milliseconds, or the last id's plus one
    /// in the sequence when the clock has not moved on), trims to `maxLength`, wakes the
    /// stream's readers unless told not to; the new id.
    @discardableResult
    private func append(to stream: SharedSceneStream, of scene: String, _ fields: [(String, String)],
                        maxLength: Int, waking: Bool = true) -> String {
        var state = scenes[scene] ?? Scene()
        var target = stream == .inbox ? state.inbox : state.outbox
        let now = clock()
        let id = now > target.last.milliseconds ? (now, UInt64(0)) : (target.last.milliseconds, target.last.sequence + 1)
        target.last = id
        let text = "\(id.0)-\(id.1)"
        target.entries.append(Entry(milliseconds: id.0, sequence: id.1,
                                    entry: SharedSceneStreamEntry(id: text, fields: fields.map { (name: $0.0, value: $0.1) })))
        if target.entries.count > maxLength { target.entries.removeFirst(target.entries.count - maxLength) }
        if stream == .inbox { state.inbox = target } else { state.outbox = target }
        scenes[scene] = state
        if waking { wakeReaders(of: scene, stream) }
        return text
    }

    private func refuse<T>(_ done: @escaping (Result<T, SharedSceneStreamError>) -> Void) {
        answer { done(.failure(.unavailable("the in-memory store is unavailable"))) }
    }

    /// Runs `completion` at the end of this turn, after those queued before it.
    private func answer(_ completion: @escaping () -> Void) {
        completions.append(completion)
        if hook == nil {
            hook = EndOfTurnHook(loop: loop) { [weak self] in self?.drain() }
        }
        hook?.schedule()
    }

    private func drain() {
        while !completions.isEmpty {
            let batch = completions
            completions.removeAll()
            for completion in batch { completion() }
        }
    }

    fileprivate static func parse(_ id: String) -> (UInt64, UInt64)? {
        let parts = id.split(separator: "-", maxSplits: 1)
        guard parts.count == 2, let milliseconds = UInt64(parts[0]), let sequence = UInt64(parts[1]) else { return nil }
        return (milliseconds, sequence)
    }

    private static func milliseconds(_ duration: Duration) -> UInt64 {
        let components = duration.components
        return UInt64(max(0, components.seconds)) * 1000 + UInt64(max(0, components.attoseconds) / 1_000_000_000_000_000)
    }
}
