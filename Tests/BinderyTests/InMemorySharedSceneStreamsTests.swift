@testable import Bindery
import EventLoop
import Foundation
import LoopTestSupport
import XCTest

/// The in-memory shared-scene streams keep Redis's semantics: growing ids, reads after an
/// id, fenced commits, trimming, leases on the streams' clock, completions in call order,
/// readers that wait (and can be held back). No redis-server.
final class InMemorySharedSceneStreamsTests: XCTestCase {
    private var runner: LoopThread!
    private var box: LoopBox<InMemorySharedSceneStreams>!
    /// Milliseconds added to the wall clock (the test moves the streams' time on).
    private let offset = LoopBox<UInt64>(0)

    override func setUpWithError() throws {
        runner = try LoopThread()
        box = try makeStreams(outboxMaxLength: 10_000)
    }

    override func tearDown() {
        runner?.stop()
        runner = nil
    }

    private func makeStreams(outboxMaxLength: Int) throws -> LoopBox<InMemorySharedSceneStreams> {
        let offset = self.offset
        return try runner.sync { [runner] in
            let streams = InMemorySharedSceneStreams(loop: runner!.loop, maxLength: 4, outboxMaxLength: outboxMaxLength)
            let wall = streams.clock
            streams.clock = { wall() + offset.value }
            return LoopBox(streams)
        }
    }

    /// Runs `body` on the loop and waits for the one answer it gives.
    private func call<T: Sendable>(_ body: @escaping @Sendable (InMemorySharedSceneStreams, @escaping (T) -> Void) -> Void) throws -> T {
        let recorder = Recorder<T>()
        let box = self.box!
        try runner.sync { body(box.value) { recorder.append($0) } }
        guard recorder.wait(for: 1, timeout: 3) else { throw TestError("no answer") }
        return recorder.values[0]
    }

    private func commit(_ epoch: Int64, inbox: String = "0-0", version: Int, snapshot: Bool = false,
                        entries: [SharedSceneOutboxRecord]) throws -> Result<Void, SharedSceneStreamError> {
        try call { streams, done in
            let batch = SharedSceneCommit(epoch: epoch, inboxID: inbox, version: version,
                                          snapshot: snapshot ? .init(widgets: "[]", counts: "p0=1", state: "") : nil,
                                          entries: entries)
            streams.commit(scene: "board", batch, done)
        }
    }

    private static func record(_ version: Int, origin: String = "p0") -> SharedSceneOutboxRecord {
        SharedSceneOutboxRecord(version: version, origin: origin, forwardID: "\(version)", answer: "a\(version)", patch: "")
    }

    private func outboxVersions() throws -> [String] {
        let box = self.box!
        return try runner.sync { box.value.outbox(scene: "board").map { $0["v"] ?? "?" } }
    }

    // MARK: - Lease

    func testTheLeaseIsHeldByOneHolderUntilItRunsOutOnTheStreamsClock() throws {
        let lease = Duration.seconds(10)
        XCTAssertEqual(try call { $0.acquireLease(scene: "board", holder: "p0", duration: lease, $1) }.get(), 1)
        XCTAssertEqual(try call { $0.acquireLease(scene: "board", holder: "p1", duration: lease, $1) }.get(), nil,
                       "held by p0")
        XCTAssertEqual(try call { $0.renewLease(scene: "board", holder: "p0", epoch: 1, duration: lease, $1) }.get(), true)
        XCTAssertEqual(try call { $0.renewLease(scene: "board", holder: "p1", epoch: 1, duration: lease, $1) }.get(), false)
        XCTAssertEqual(try call { $0.renewLease(scene: "board", holder: "p0", epoch: 2, duration: lease, $1) }.get(), false)
        // Ten seconds later on the streams' clock: run out, the next holder gets the next epoch.
        try runner.sync { [offset] in offset.value += 10_001 }
        XCTAssertEqual(try call { $0.renewLease(scene: "board", holder: "p0", epoch: 1, duration: lease, $1) }.get(), false,
                       "a lease that ran out is not renewed")
        XCTAssertEqual(try call { $0.acquireLease(scene: "board", holder: "p1", duration: lease, $1) }.get(), 2)
        // Released only by its holder.
        let box = self.box!
        try runner.sync { box.value.releaseLease(scene: "board", holder: "p0") }
        XCTAssertEqual(try runner.sync { box.value.lease(scene: "board").holder }, "p1")
        try runner.sync { box.value.releaseLease(scene: "board", holder: "p1") }
        XCTAssertNil(try runner.sync { box.value.lease(scene: "board").holder })
        XCTAssertEqual(try call { $0.acquireLease(scene: "board", holder: "p0", duration: lease, $1) }.get(), 3)
    }

    // MARK: - Commits

    func testACommitUnderAStaleEpochIsRefusedAndWritesNothing() throws {
        _ = try call { $0.acquireLease(scene: "board", holder: "p0", duration: .seconds(10), $1) }
        XCTAssertNoThrow(try commit(1, version: 1, snapshot: true, entries: [Self.record(1)]).get())
        let box = self.box!
        let epoch = try runner.sync { box.value.seizeLease(scene: "board", holder: "p1", duration: .seconds(10)) }
        XCTAssertEqual(epoch, 2)
        let refused = try commit(1, version: 2, snapshot: true, entries: [Self.record(2)])
        guard case .failure(.fenced(epoch: 1)) = refused else { return XCTFail("not fenced: \(refused)") }
        XCTAssertEqual(try outboxVersions(), ["1"], "nothing of the stale batch")
        XCTAssertEqual(try runner.sync { box.value.snapshot(scene: "board").version }, 1)
        XCTAssertEqual(try runner.sync { box.value.snapshot(scene: "board").epoch }, 1)
        XCTAssertNoThrow(try commit(2, version: 2, entries: [Self.record(2)]).get(), "the new epoch commits")
        XCTAssertEqual(try outboxVersions(), ["1", "2"])
    }

    func testTheSnapshotNamesTheBatchsLastEntryOrTheNewestOne() throws {
        _ = try call { $0.acquireLease(scene: "board", holder: "p0", duration: .seconds(10), $1) }
        XCTAssertNoThrow(try commit(1, inbox: "5-0", version: 2, entries: [Self.record(1), Self.record(2)]).get())
        let box = self.box!
        XCTAssertEqual(try runner.sync { box.value.snapshot(scene: "board") }, .none, "no snapshot asked for")
        let entries = try runner.sync { box.value.outbox(scene: "board").map { [$0.id, $0["i"] ?? "-"] } }
        XCTAssertEqual(entries.map { $0[1] }, ["-", "5-0"], "the last entry names the last applied inbox id")
        XCTAssertNoThrow(try commit(1, inbox: "6-0", version: 2, snapshot: true, entries: []).get())
        let snapshot = try runner.sync { box.value.snapshot(scene: "board") }
        XCTAssertEqual(snapshot.outboxID, entries[1][0], "the newest entry")
        XCTAssertEqual(snapshot.inboxID, "6-0")
        XCTAssertEqual(snapshot.version, 2)
        XCTAssertEqual(snapshot.counts, "p0=1")
        let read = try call { $0.readSnapshot(scene: "board", $1) }
        XCTAssertEqual(try read.get(), snapshot)
    }

    func testTheOutboxIsTrimmedToItsLengthAndTheInboxUpToTheLastAppliedEntry() throws {
        box = try makeStreams(outboxMaxLength: 3)
        _ = try call { $0.acquireLease(scene: "board", holder: "p0", duration: .seconds(10), $1) }
        XCTAssertNoThrow(try commit(1, version: 5, entries: (1...5).map { Self.record($0) }).get())
        XCTAssertEqual(try outboxVersions(), ["3", "4", "5"])
        // The inbox: at most maxLength (4) entries, and none before a commit's last applied id.
        for count in 1...6 {
            XCTAssertNoThrow(try call { $0.appendViewerCount(scene: "board", origin: "p0", count: count, $1) }.get())
        }
        let box = self.box!
        let inbox = try runner.sync { box.value.inbox(scene: "board").map { [$0.id, $0["n"] ?? "?"] } }
        XCTAssertEqual(inbox.map { $0[1] }, ["3", "4", "5", "6"])
        XCTAssertNoThrow(try commit(1, inbox: inbox[2][0], version: 5, entries: []).get())
        XCTAssertEqual(try runner.sync { box.value.inbox(scene: "board").map { $0["n"] ?? "?" } }, ["5", "6"])
    }

    // MARK: - Streams and readers

    func testIdsGrowAndReadsStartAfterTheGivenIdInOrder() throws {
        for index in 0..<5 {
            XCTAssertNoThrow(try call {
                $0.appendEvent(scene: "board", origin: "p\(index)", forwardID: index, session: "s", event: "{}", $1)
            }.get())
        }
        let box = self.box!
        let ids = try runner.sync { box.value.inbox(scene: "board").map(\.id) }
        XCTAssertEqual(ids.count, 4, "trimmed to maxLength")
        let parsed = ids.compactMap(SharedSceneStreamID.init)
        XCTAssertEqual(parsed.count, ids.count)
        XCTAssertEqual(parsed, parsed.sorted())
        XCTAssertEqual(Set(ids).count, ids.count, "no id twice")
        let reader = try runner.sync { LoopBox(box.value.openReader(.inbox, scene: "board", for: "p0")) }
        let read = try call { _, done in reader.value.read(after: ids[1], count: 1, done) }
        XCTAssertEqual(try read.get().map { $0["o"] }, ["p3"])
        let all = try call { _, done in reader.value.read(after: "0-0", count: 10, done) }
        XCTAssertEqual(try all.get().map(\.id), ids)
        try runner.sync { reader.value.close() }
    }

    func testAReaderWaitsForTheNextEntryAndAHeldOneUntilItIsLetGo() throws {
        let box = self.box!
        let answers = Recorder<[String]>()
        let held = Recorder<[String]>()
        try runner.sync {
            let reader = box.value.openReader(.outbox, scene: "board", for: "p0")
            let lagging = box.value.openReader(.outbox, scene: "board", for: "p1")
            box.value.holdOutbox(true, for: "p1")
            reader.read(after: "0-0", count: 10) { answers.append((try? $0.get().map { $0["v"] ?? "?" }) ?? ["error"]) }
            lagging.read(after: "0-0", count: 10) { held.append((try? $0.get().map { $0["v"] ?? "?" }) ?? ["error"]) }
        }
        usleep(100_000)
        XCTAssertEqual(answers.values.count, 0, "nothing to read yet")
        _ = try call { $0.acquireLease(scene: "board", holder: "p0", duration: .seconds(10), $1) }
        XCTAssertNoThrow(try commit(1, version: 2, entries: [Self.record(1), Self.record(2)]).get())
        XCTAssertTrue(answers.wait(for: 1, timeout: 1))
        XCTAssertEqual(answers.values, [["1", "2"]])
        usleep(100_000)
        XCTAssertEqual(held.values.count, 0, "held back")
        try runner.sync { box.value.holdOutbox(false, for: "p1") }
        XCTAssertTrue(held.wait(for: 1, timeout: 1))
        XCTAssertEqual(held.values, [["1", "2"]])
    }

    func testAReadWithNothingIsAnsweredEmptyAfterASecond() throws {
        let box = self.box!
        let reader = try runner.sync { LoopBox(box.value.openReader(.inbox, scene: "board", for: "p0")) }
        let started = Date()
        let read = try call { _, done in reader.value.read(after: "0-0", count: 10, done) }
        XCTAssertEqual(try read.get().count, 0)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.9)
    }

    func testCompletionsRunLaterInTheOrderOfTheCalls() throws {
        let box = self.box!
        let order = Recorder<String>()
        let inline = try runner.sync {
            var ran = false
            box.value.appendViewerCount(scene: "board", origin: "p0", count: 1) { _ in ran = true; order.append("append") }
            box.value.newestOutboxID(scene: "board") { _ in order.append("newest") }
            box.value.readSnapshot(scene: "board") { _ in order.append("snapshot") }
            return ran
        }
        XCTAssertFalse(inline, "a completion ran inside its call")
        XCTAssertTrue(order.wait(for: 3))
        XCTAssertEqual(order.values, ["append", "newest", "snapshot"])
    }

    func testAnUnavailableStoreRefusesEverything() throws {
        let box = self.box!
        try runner.sync { box.value.isAvailable = false }
        let appended = try call { $0.appendViewerCount(scene: "board", origin: "p0", count: 1, $1) }
        guard case .failure(.unavailable) = appended else { return XCTFail("\(appended)") }
        let acquired = try call { $0.acquireLease(scene: "board", holder: "p0", duration: .seconds(1), $1) }
        guard case .failure(.unavailable) = acquired else { return XCTFail("\(acquired)") }
        XCTAssertEqual(try runner.sync { box.value.inbox(scene: "board").count }, 0)
    }
}
