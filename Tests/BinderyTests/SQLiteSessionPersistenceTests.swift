@testable import Bindery
import BinderyCluster
import EventLoop
import Foundation
import LoopTestSupport
import RxCore
import RxTesting
import RxWidgets
import XCTest

/// `SQLiteSessionPersistence` against a real file in a temporary folder, on a real loop
/// (its completions come back through the loop from the worker). The contract checks
/// (`check…`) also run against `InMemorySessionPersistence`, so both keep one set of rules.
final class SQLiteSessionPersistenceTests: XCTestCase {
    private var runner: LoopThread!
    private var folder: URL!
    private var path: String { folder.appendingPathComponent("sessions.db").path }

    override func setUpWithError() throws {
        try super.setUpWithError()
        runner = try LoopThread()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("bindery-sqlite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        runner.stop()
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    // MARK: - Helpers

    /// A started persistence on the file (available once its first write worked).
    private func open(_ path: String? = nil, timeToLive: Duration = .seconds(40), waitsUntilAvailable: Bool = true,
                      log: Recorder<String>? = nil) throws -> LoopBox<SessionPersistence> {
        let path = path ?? self.path
        let loop = runner.loop
        let box = try runner.sync {
            let sqlite = SQLiteSessionPersistence(path: path, loop: loop, timeToLive: timeToLive)
            sqlite.logger = { log?.append($0) }
            sqlite.start()
            return LoopBox<SessionPersistence>(sqlite)
        }
        if waitsUntilAvailable {
            XCTAssertTrue(eventually { (try? self.runner.sync { box.value.isAvailable }) == true }, "the store opened")
        }
        return box
    }

    /// An in-memory persistence made on the loop.
    private func inMemory() throws -> LoopBox<SessionPersistence> {
        try runner.sync { LoopBox<SessionPersistence>(InMemorySessionPersistence()) }
    }

    /// Calls `body` on the loop and waits for the answer it passes on.
    private func call<T>(_ persistence: LoopBox<SessionPersistence>,
                         _ body: @escaping (SessionPersistence, @escaping (T) -> Void) -> Void) throws -> T {
        let answer = LoopBox<T?>(nil)
        let gate = Gate()
        let work = LoopBox(body)
        runner.loop.execute {
            work.value(persistence.value) { answer.value = $0; gate.open() }
        }
        guard gate.wait() else { throw TestError("no answer from the store") }
        return answer.value!
    }

    private func stop(_ persistence: LoopBox<SessionPersistence>) throws {
        _ = try call(persistence) { (store: SessionPersistence, done: @escaping (Bool) -> Void) in store.stop { done(true) } }
    }

    private func session(_ token: String, scene: String = "echo") -> StoredSession {
        StoredSession(token: token, scene: scene, createdAt: 1_700_000_000.5, restoration: .replay, parameters: ["room": "7"])
    }

    /// A write's answer, Equatable (`Result<Void, _>` is not): `.success(true)` for done.
    private typealias Answer = Result<Bool, SessionPersistenceError>

    private func write(_ store: LoopBox<SessionPersistence>,
                       _ body: @escaping (SessionPersistence, @escaping (Result<Void, SessionPersistenceError>) -> Void) -> Void)
        throws -> Answer {
        try call(store, body).map { true }
    }

    private func create(_ store: LoopBox<SessionPersistence>, _ stored: StoredSession) throws -> Answer {
        try write(store) { $0.create(stored, completion: $1) }
    }

    private func append(_ store: LoopBox<SessionPersistence>, _ token: String, epoch: Int64, seq: Int?,
                        event: String? = nil, state: String? = nil) throws -> Answer {
        try write(store) { $0.append(token: token, epoch: epoch, seq: seq, event: event, state: state, completion: $1) }
    }

    private func takeOver(_ store: LoopBox<SessionPersistence>, _ token: String, scene: String? = nil)
        throws -> Result<StoredSession?, SessionPersistenceError> {
        try call(store) { $0.takeOver(token: token, scene: scene, completion: $1) }
    }

    /// Rows for `token` in the file's tables, read with a connection of its own.
    private func rows(_ token: String) throws -> (sessions: Int64, journal: Int64) {
        let database = try SQLiteDatabase(path: path, busyTimeout: 2000)
        defer { database.close() }
        return (try database.integer("SELECT COUNT(*) FROM sessions WHERE token = ?", [.text(token)]) ?? -1,
                try database.integer("SELECT COUNT(*) FROM journal WHERE token = ?", [.text(token)]) ?? -1)
    }

    private func isUnavailable<T>(_ result: Result<T, SessionPersistenceError>) -> Bool {
        if case .failure(.unavailable) = result { return true }
        return false
    }

    // MARK: - The contract (SQLite and in-memory alike)

    private func checkCreateAppendAndTakeOverReadBack(_ store: LoopBox<SessionPersistence>) throws {
        XCTAssertNoThrow(try create(store, session("t1")).get())
        XCTAssertEqual(try create(store, session("t1")), .failure(.fenced), "a token is recorded once")
        XCTAssertNoThrow(try append(store, "t1", epoch: 1, seq: 1, event: #"{"seq":1}"#).get())
        XCTAssertNoThrow(try append(store, "t1", epoch: 1, seq: 2, event: #"{"seq":2}"#).get())
        let taken = try XCTUnwrap(try takeOver(store, "t1").get())
        XCTAssertEqual(taken.epoch, 2)
        XCTAssertEqual(taken.journal, [#"{"seq":1}"#, #"{"seq":2}"#])
        XCTAssertEqual(taken.lastSeq, 2)
        XCTAssertEqual(taken.scene, "echo")
        XCTAssertEqual(taken.createdAt, 1_700_000_000.5)
        XCTAssertEqual(taken.parameters, ["room": "7"])
        XCTAssertEqual(try takeOver(store, "nobody").get(), nil)
        XCTAssertEqual(try takeOver(store, "t1", scene: "clock"), .failure(.otherScene("echo")))
        XCTAssertEqual(try takeOver(store, "t1").get()?.epoch, 3, "the refused takeover left the epoch alone")
    }

    private func checkAnOlderEpochIsFenced(_ store: LoopBox<SessionPersistence>) throws {
        XCTAssertNoThrow(try create(store, session("t2")).get())
        XCTAssertNoThrow(try append(store, "t2", epoch: 1, seq: 1, event: "a").get())
        XCTAssertEqual(try takeOver(store, "t2").get()?.epoch, 2)
        XCTAssertEqual(try append(store, "t2", epoch: 1, seq: 2, event: "stale"), .failure(.fenced))
        XCTAssertEqual(try write(store) { $0.refresh(token: "t2", epoch: 1, completion: $1) }, .failure(.fenced))
        XCTAssertEqual(try write(store) { $0.release(token: "t2", epoch: 1, completion: $1) }, .failure(.fenced))
        XCTAssertNoThrow(try write(store) { $0.delete(token: "t2", epoch: 1, completion: $1) }.get(), "not ours: a success")
        XCTAssertEqual(try append(store, "t2", epoch: 2, seq: 3, event: "b"), .success(true))
        XCTAssertEqual(try append(store, "gone", epoch: 1, seq: 1, event: "x"), .failure(.fenced), "no such session")
        let taken = try XCTUnwrap(try takeOver(store, "t2").get())
        XCTAssertEqual(taken.journal, ["a", "b"], "the stale write never landed, the delete deleted nothing")
    }

    private func checkAStateReplacesTheJournal(_ store: LoopBox<SessionPersistence>) throws {
        XCTAssertNoThrow(try create(store, session("t3")).get())
        for seq in 1...3 { XCTAssertNoThrow(try append(store, "t3", epoch: 1, seq: seq, event: "e\(seq)").get()) }
        XCTAssertNoThrow(try append(store, "t3", epoch: 1, seq: 4, event: "e4", state: #"{"shown":"x"}"#).get())
        XCTAssertNoThrow(try append(store, "t3", epoch: 1, seq: 5, event: "e5").get())
        let taken = try XCTUnwrap(try takeOver(store, "t3").get())
        XCTAssertEqual(taken.state, #"{"shown":"x"}"#)
        XCTAssertEqual(taken.journal, ["e5"], "compacted: only what came after the state")
        XCTAssertEqual(taken.lastSeq, 5)
    }

    private func checkDeleteEndsTheSession(_ store: LoopBox<SessionPersistence>) throws {
        XCTAssertNoThrow(try create(store, session("t4")).get())
        XCTAssertNoThrow(try append(store, "t4", epoch: 1, seq: 1, event: "a").get())
        XCTAssertNoThrow(try write(store) { $0.delete(token: "t4", epoch: 1, completion: $1) }.get())
        XCTAssertEqual(try takeOver(store, "t4").get(), nil)
        XCTAssertNoThrow(try create(store, session("t4")).get(), "the token can be recorded afresh")
        XCTAssertEqual(try takeOver(store, "t4").get()?.journal, [], "with no journal left over")
    }

    private func checkContract(_ store: LoopBox<SessionPersistence>) throws {
        try checkCreateAppendAndTakeOverReadBack(store)
        try checkAnOlderEpochIsFenced(store)
        try checkAStateReplacesTheJournal(store)
        try checkDeleteEndsTheSession(store)
    }

    func testTheContractHoldsForSQLite() throws {
        let store = try open()
        try checkContract(store)
        try stop(store)
    }

    func testTheContractHoldsForInMemoryToo() throws {
        try checkContract(try inMemory())
    }

    // MARK: - SQLite only

    func testDeleteLeavesNoRowsInTheFile() throws {
        let store = try open()
        XCTAssertNoThrow(try create(store, session("t5")).get())
        XCTAssertNoThrow(try append(store, "t5", epoch: 1, seq: 1, event: "a").get())
        XCTAssertNoThrow(try append(store, "t5", epoch: 1, seq: 2, event: "b").get())
        XCTAssertEqual(try rows("t5").sessions, 1)
        XCTAssertEqual(try rows("t5").journal, 2)
        XCTAssertNoThrow(try write(store) { $0.delete(token: "t5", epoch: 1, completion: $1) }.get())
        XCTAssertEqual(try rows("t5").sessions, 0)
        XCTAssertEqual(try rows("t5").journal, 0)
        try stop(store)
    }

    func testAnExpiredSessionIsGoneOnReadAndItsRowsAreSwept() throws {
        // TTL 0.6 s: t6 expires at 0.6 s, t7 (refreshed at 0.4 s) at 1 s; read at 0.8 s.
        let store = try open(timeToLive: .milliseconds(600))
        XCTAssertNoThrow(try create(store, session("t6")).get())
        XCTAssertNoThrow(try append(store, "t6", epoch: 1, seq: 1, event: "a").get())
        XCTAssertNoThrow(try create(store, session("t7")).get())
        Thread.sleep(forTimeInterval: 0.4)
        XCTAssertNoThrow(try write(store) { $0.refresh(token: "t7", epoch: 1, completion: $1) }.get(), "t7 kept alive")
        Thread.sleep(forTimeInterval: 0.4)
        XCTAssertEqual(try append(store, "t6", epoch: 1, seq: 2, event: "late"), .failure(.fenced), "expired: gone")
        XCTAssertEqual(try rows("t6").sessions, 0)
        XCTAssertEqual(try rows("t6").journal, 0)
        XCTAssertEqual(try rows("t7").sessions, 1, "a refreshed session outlives its first TTL")
        XCTAssertEqual(try takeOver(store, "t6").get(), nil)
        try stop(store)
    }

    func testANewPersistenceOnTheSameFileSeesWhatWasAcknowledged() throws {
        let first = try open()
        XCTAssertNoThrow(try create(first, session("t8")).get())
        XCTAssertNoThrow(try append(first, "t8", epoch: 1, seq: 1, event: "a").get())
        // Acknowledged but not stopped: as if the process died here.
        let second = try open()
        let taken = try XCTUnwrap(try takeOver(second, "t8").get())
        XCTAssertEqual(taken.journal, ["a"])
        XCTAssertEqual(taken.epoch, 2)
        XCTAssertEqual(try append(first, "t8", epoch: 1, seq: 2, event: "stale"), .failure(.fenced),
                       "the old process is fenced through the file")
        try stop(first)
        try stop(second)
    }

    func testAFileThatCannotBeOpenedAnswersUnavailableWithOneLogLine() throws {
        // A regular file where the folder should be: no user, root included, can open it.
        let blocker = folder.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: blocker)
        let log = Recorder<String>()
        let store = try open(blocker.appendingPathComponent("sessions.db").path, waitsUntilAvailable: false, log: log)
        XCTAssertTrue(isUnavailable(try create(store, session("t9"))))
        XCTAssertTrue(isUnavailable(try append(store, "t9", epoch: 1, seq: 1, event: "a")))
        XCTAssertFalse(try runner.sync { store.value.isAvailable })
        XCTAssertEqual(log.values.count, 1, "one line for one trouble: \(log.values)")
        XCTAssertTrue(log.values.first?.contains("SQLITE_CANTOPEN") == true, "\(log.values)")
        try stop(store)
    }

    func testACorruptFileAnswersUnavailableAndTheStoreRecoversOnceTheFileIsSound() throws {
        try Data(repeating: 0x5a, count: 8192).write(to: URL(fileURLWithPath: path))
        let log = Recorder<String>()
        let store = try open(waitsUntilAvailable: false, log: log)
        let result = try create(store, session("t10"))
        XCTAssertTrue(isUnavailable(result), "\(result)")
        XCTAssertTrue(log.values.first?.contains("SQLITE_NOTADB") == true, "\(log.values)")
        // Someone moves the bad file away: the once-a-second probe finds writes work again.
        try FileManager.default.removeItem(atPath: path)
        XCTAssertTrue(eventually { (try? self.runner.sync { store.value.isAvailable }) == true }, "back")
        XCTAssertNoThrow(try create(store, session("t10")).get())
        XCTAssertTrue(log.values.last?.contains("ready") == true, "\(log.values)")
        try stop(store)
    }

    func testAFullDiskAnswersUnavailableNeverAcksAndRecoversWhenWritesFitAgain() throws {
        // At most 64 pages of 4 KiB: a 1 MiB event cannot be written, small ones can.
        let loop = runner.loop, path = self.path
        let log = Recorder<String>()
        let store = try runner.sync {
            let sqlite = SQLiteSessionPersistence(path: path, loop: loop, timeToLive: .seconds(40), busyTimeout: .seconds(2),
                                                  processID: nil, openingSQL: "PRAGMA max_page_count=64;")
            sqlite.logger = { log.append($0) }
            sqlite.start()
            return LoopBox<SessionPersistence>(sqlite)
        }
        XCTAssertTrue(eventually { (try? self.runner.sync { store.value.isAvailable }) == true })
        XCTAssertNoThrow(try create(store, session("t12")).get())
        XCTAssertNoThrow(try append(store, "t12", epoch: 1, seq: 1, event: "small").get())
        let full = try append(store, "t12", epoch: 1, seq: 2, event: String(repeating: "x", count: 1 << 20))
        XCTAssertTrue(isUnavailable(full), "\(full)")
        XCTAssertTrue(log.values.contains { $0.contains("SQLITE_FULL") }, "\(log.values)")
        XCTAssertTrue(eventually { (try? self.runner.sync { store.value.isAvailable }) == true }, "the probe fits: back")
        XCTAssertNoThrow(try append(store, "t12", epoch: 1, seq: 3, event: "after").get())
        XCTAssertEqual(try takeOver(store, "t12").get()?.journal, ["small", "after"], "the refused write never landed")
        try stop(store)
    }

    func testAFileLockedBeyondTheBusyTimeoutAnswersUnavailableAndRecoversOnceUnlocked() throws {
        let loop = runner.loop, path = self.path
        let log = Recorder<String>()
        let store = try runner.sync {
            let sqlite = SQLiteSessionPersistence(path: path, loop: loop, timeToLive: .seconds(40), busyTimeout: .milliseconds(100))
            sqlite.logger = { log.append($0) }
            sqlite.start()
            return LoopBox<SessionPersistence>(sqlite)
        }
        XCTAssertTrue(eventually { (try? self.runner.sync { store.value.isAvailable }) == true })
        // Another process holds the write lock.
        let other = try SQLiteDatabase(path: path, busyTimeout: 0)
        try other.execute("BEGIN EXCLUSIVE")
        let locked = try create(store, session("t13"))
        XCTAssertTrue(isUnavailable(locked), "\(locked)")
        XCTAssertTrue(log.values.contains { $0.contains("SQLITE_BUSY") }, "\(log.values)")
        XCTAssertFalse(try runner.sync { store.value.isAvailable })
        try other.execute("COMMIT")
        other.close()
        XCTAssertTrue(eventually { (try? self.runner.sync { store.value.isAvailable }) == true }, "unlocked: back")
        XCTAssertNoThrow(try create(store, session("t13")).get(), "the locked creation never landed")
        try stop(store)
    }

    func testABatchOfOneTurnIsOneTransactionAndAnswersInOrder() throws {
        let store = try open()
        XCTAssertNoThrow(try create(store, session("t11")).get())
        let before = try runner.sync { (store.value as! SQLiteSessionPersistence).batches }
        // Fifty appends in one loop turn, one stale among them: each gets its own answer, in order.
        let answers = try call(store) { (store: SessionPersistence, done: @escaping ([String]) -> Void) in
            var seen: [String] = []
            for seq in 1...50 {
                store.append(token: "t11", epoch: seq == 25 ? 9 : 1, seq: seq, event: "e\(seq)", state: nil) { result in
                    seen.append("\(seq):\((try? result.get()) != nil)")
                    if seq == 50 { done(seen) }
                }
            }
        }
        XCTAssertEqual(answers, (1...50).map { "\($0):\($0 != 25)" })
        XCTAssertEqual(try runner.sync { (store.value as! SQLiteSessionPersistence).batches } - before, 1, "one transaction")
        XCTAssertEqual(try rows("t11").journal, 49)
        XCTAssertEqual(try takeOver(store, "t11").get()?.journal, (1...50).filter { $0 != 25 }.map { "e\($0)" })
        try stop(store)
    }

    /// Group commit: while a batch is being written, what the next turns bring waits and
    /// goes as one batch when it is answered, not as a batch (and an fsync) per turn.
    func testWritesMadeWhileABatchIsBeingWrittenGoTogetherAsTheNextBatch() throws {
        let store = try open()
        XCTAssertNoThrow(try create(store, session("t14")).get())
        let before = try runner.sync { (store.value as! SQLiteSessionPersistence).batches }
        // Another connection holds the write lock, so the first append's batch waits in the
        // worker (within the busy timeout) while ten more turns each append one event.
        let other = try SQLiteDatabase(path: path, busyTimeout: 0)
        try other.execute("BEGIN EXCLUSIVE")
        let seen = Recorder<String>()
        let all = Gate()
        for seq in 1...11 {
            try runner.sync {
                store.value.append(token: "t14", epoch: 1, seq: seq, event: "e\(seq)", state: nil) { result in
                    seen.append("\(seq):\((try? result.get()) != nil)")
                    if seq == 11 { all.open() }
                }
            }
        }
        XCTAssertEqual(try runner.sync { (store.value as! SQLiteSessionPersistence).batches } - before, 1,
                       "one batch in the worker; the other turns' appends wait")
        try other.execute("COMMIT")
        other.close()
        XCTAssertTrue(all.wait())
        XCTAssertEqual(seen.values, (1...11).map { "\($0):true" }, "every append answered, in order")
        XCTAssertEqual(try runner.sync { (store.value as! SQLiteSessionPersistence).batches } - before, 2,
                       "the ten waiting appends went as one batch")
        XCTAssertEqual(try rows("t14").journal, 11)
        try stop(store)
    }

    // MARK: - The command line

    func testStoreSqlitePathMakesTheAppKeepSessionsInThatFileCreatingItsFolder() throws {
        XCTAssertThrowsError(try BinderyOptions.parse(["--store", "sqlite:"]), "a path is needed")
        let path = folder.appendingPathComponent("nested/deeper/sessions.db").path
        var options = try BinderyOptions.parse(["--port", "0", "--log-level", "error", "--store", "sqlite:\(path)"])
        try options.validate()
        let configuration = options.configuration
        XCTAssertEqual(configuration.store, "sqlite:\(path)")
        XCTAssertEqual(BinderyApp.sqlitePath("sqlite://\(path)"), path)
        XCTAssertNil(BinderyApp.sqlitePath("redis://127.0.0.1:6379"))
        let loop = runner.loop
        let app = try runner.sync {
            let app = BinderyApp(registry: makeTestRegistry(), configuration: configuration)
            try app.start(on: loop)
            return LoopBox(app)
        }
        XCTAssertTrue(try runner.sync { app.value.persistence is SQLiteSessionPersistence })
        XCTAssertTrue(eventually { (try? self.runner.sync { app.value.persistence?.isAvailable }) == true }, "opened")
        XCTAssertTrue(FileManager.default.fileExists(atPath: path), "the folder and the file were made")
        let done = Gate()
        runner.loop.execute { app.value.shutdown(timeout: .milliseconds(200)) { done.open() } }
        XCTAssertTrue(done.wait())
    }

    // MARK: - A restart of a real SessionStore

    func testASessionStoreOnTheFileResumesASessionAfterARestart() throws {
        let path = self.path
        let loop = runner.loop
        let scheduler = LoopBox(TestScheduler(initialClock: 0, simulateProcessingDelay: false))
        func makeStore() throws -> LoopBox<SessionStore> {
            let box = try runner.sync {
                let persistence = SQLiteSessionPersistence(path: path, loop: loop, timeToLive: .seconds(40))
                let store = SessionStore(registry: makeTestRegistry(),
                                         configuration: SessionStore.Configuration(gracePeriod: .seconds(30), strictBindingErrors: false),
                                         scheduler: scheduler.value, flushScheduler: scheduler.value, persistence: persistence)
                return LoopBox((store, persistence))
            }
            XCTAssertTrue(eventually { (try? self.runner.sync { box.value.1.isAvailable }) == true })
            return try runner.sync { LoopBox(box.value.0) }
        }
        let first = try makeStore()
        let acks = LoopBox<[Int]>([])
        let client = LoopBox<SessionClient?>(nil)
        let token = try runner.sync {
            let session = try first.value.createSession(scene: "echo")
            client.value = session.connect { message in if let ack = message.ack { acks.value.append(ack) } }
            let client = client.value!
            client.receive(.event(EventMessage(seq: 1, target: "input", event: "editingChanged", value: .string("hello"))))
            return session.id
        }
        XCTAssertTrue(eventually { (try? self.runner.sync { acks.value }) == [1] }, "acked once written")

        // The process dies (nothing is stopped or released); a new one opens the file.
        let second = try makeStore()
        let resumed = LoopBox<Result<Session?, SessionError>?>(nil)
        try runner.sync { second.value.session(id: token) { resumed.value = $0 } }
        XCTAssertTrue(eventually { (try? self.runner.sync { resumed.value != nil }) == true })
        let shown = try runner.sync { () -> [String?] in
            guard case .success(let session?) = resumed.value else { return [] }
            return [(session.widget(withID: "output") as? Label)?.text, session.journal.map { "\($0.epoch)" }]
        }
        XCTAssertEqual(shown, ["HELLO", "2"], "the journal replayed, the epoch raised")
    }
}
