import Bindery
import BinderyTesting
import Foundation
import RxCore
import RxTesting
import RxWidgets
import XCTest

/// Session safety (issue 8, item 4): tokens are unguessable, a token only ever resumes
/// its own session of its own scene, and a shared scene tells each connection only what
/// is its own. In-process, in virtual time; the WebSocket endpoint goes through the same
/// `resumeOrCreate` (the Python integration script checks it over the wire too).
final class SessionSafetyTests: XCTestCase {
    private var scheduler: TestScheduler!
    private var store: SessionStore!

    override func setUp() {
        super.setUp()
        scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        store = makeStore()
    }

    private func makeStore() -> SessionStore {
        SessionStore(registry: makeTestRegistry(),
                     configuration: SessionStore.Configuration(gracePeriod: .seconds(30), maxSessions: 100_000,
                                                               maxSessionsPerAddress: 100_000, strictBindingErrors: false),
                     scheduler: scheduler, flushScheduler: scheduler)
    }

    private func type(_ text: String, into session: Session, seq: Int = 1) {
        _ = session.handle(.event(EventMessage(seq: seq, target: "input", event: "editingChanged", value: .string(text))))
    }

    private func output(of session: Session) -> String? {
        (session.widget(withID: "output") as? Label)?.text
    }

    // MARK: - Tokens

    /// 5,000 tokens: 22 base64url characters (132 bits) whose last character has its 4
    /// spare bits zero (so exactly 128 bits are encoded), all distinct, and every one of the
    /// 128 bit positions set in about half of them (within 6 standard deviations: a
    /// counter, a timestamp or a short seed would leave whole positions constant).
    func testTokensCarry128UniformRandomBitsAndNeverRepeat() throws {
        let count = 5_000
        var tokens = Set<String>()
        var ones = [Int](repeating: 0, count: 128)
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        for _ in 0..<count {
            let session = try store.createSession(scene: "board")  // shared: no controller per session
            let token = session.id
            XCTAssertEqual(token.count, 22, token)
            XCTAssertTrue(token.allSatisfy(alphabet.contains), token)
            XCTAssertTrue("AQgw".contains(token.last!), "the last character's 4 spare bits must be zero: \(token)")
            let bytes = try XCTUnwrap(Self.decodeBase64url(token))
            XCTAssertEqual(bytes.count, 16)
            for bit in 0..<128 where bytes[bit / 8] & (1 << (bit % 8)) != 0 { ones[bit] += 1 }
            tokens.insert(token)
        }
        XCTAssertEqual(tokens.count, count, "a token repeated")
        let sigma = Double(count).squareRoot() / 2
        for (bit, n) in ones.enumerated() {
            XCTAssertLessThan(abs(Double(n) - Double(count) / 2), 6 * sigma, "bit \(bit) set in \(n) of \(count) tokens")
        }
        // A second store (a restarted server) does not replay the sequence: nothing seeded.
        let other = try makeStore().createSession(scene: "board")
        XCTAssertFalse(tokens.contains(other.id))
    }

    // MARK: - Resume

    /// Every pair of scenes, per-connection and shared: a token of scene A offered to scene
    /// B gets a fresh session of B (fresh state), and A's session is untouched and still
    /// resumable from A.
    func testATokenOfOneSceneNeverResumesAnother() throws {
        let scenes = ["echo", "widgets", "board"]
        for from in scenes {
            for to in scenes where to != from {
                let original = try store.createSession(scene: from)
                if from == "echo" { type("mine", into: original) }
                let (other, resumed) = try store.resumeOrCreate(scene: to, token: original.id)
                XCTAssertFalse(resumed, "\(from) token resumed \(to)")
                XCTAssertNotEqual(other.id, original.id)
                XCTAssertEqual(other.sceneName, to)
                XCTAssertFalse(original.isEnded)
                if to == "echo" { XCTAssertEqual(output(of: other), "", "a fresh echo starts empty") }
                let (again, resumedAgain) = try store.resumeOrCreate(scene: from, token: original.id)
                XCTAssertTrue(resumedAgain && again === original, "\(from) session still resumable")
                if from == "echo" { XCTAssertEqual(output(of: again), "MINE") }
            }
        }
    }

    /// 50 clients type their own text, drop, and resume in shuffled order while the others
    /// keep typing: each gets exactly its own session back, and no message any client
    /// receives carries another client's token or text. Near-miss tokens (another case,
    /// truncated, extended, empty, the short id used in logs) never resume anything.
    func testReconnectingClientsOnlyEverGetTheirOwnSession() throws {
        let count = 50
        var sessions: [Session] = []
        var received: [[String]] = Array(repeating: [], count: count)
        var clients: [SessionClient] = []
        for index in 0..<count {
            let session = try store.createSession(scene: "echo", clientAddress: "10.0.0.\(index % 5)")
            sessions.append(session)
            clients.append(session.connect { received[index].append(MessageEncoder.encode($0)) })
            clients[index].receive(.event(EventMessage(seq: 1, target: "input", event: "editingChanged",
                                                       value: .string("client-\(index)-"))))
            clients[index].disconnect()
        }
        var order = Array(0..<count)
        order.shuffle()
        for (step, index) in order.enumerated() {
            let (session, resumed) = try store.resumeOrCreate(scene: "echo", token: sessions[index].id,
                                                              clientAddress: "10.0.0.99")
            XCTAssertTrue(resumed)
            XCTAssertTrue(session === sessions[index])
            XCTAssertEqual(output(of: session), "CLIENT-\(index)-")
            let client = session.connect { received[index].append(MessageEncoder.encode($0)) }
            client.receive(.event(EventMessage(seq: 2, target: "input", event: "editingChanged",
                                               value: .string("client-\(index)-step-\(step)"))))
            client.receive(.resync(seq: 3))
            client.disconnect()
        }
        for index in 0..<count {
            let mine = received[index].joined(separator: "\n")
            for other in 0..<count where other != index {
                XCTAssertFalse(mine.contains(sessions[other].id), "client \(index) saw client \(other)'s token")
                XCTAssertFalse(mine.contains("CLIENT-\(other)-"), "client \(index) saw client \(other)'s text")
            }
        }

        let token = sessions[0].id
        let nearMisses = [token.uppercased(), token.lowercased(), String(token.dropLast()), token + "A",
                          sessions[0].shortID, "", " " + token, token + "\n", String(token.reversed())]
        for candidate in nearMisses where candidate != token {
            let before = store.sessionCount
            let (fresh, resumed) = try store.resumeOrCreate(scene: "echo", token: candidate)
            XCTAssertFalse(resumed, "'\(candidate)' resumed a session")
            XCTAssertFalse(sessions.contains { $0 === fresh })
            XCTAssertEqual(output(of: fresh), "")
            XCTAssertEqual(store.sessionCount, before + 1)
        }
    }

    /// An ended session's token (bye, delete, expiry) gives a fresh session, never the old
    /// state.
    func testEndedTokensNeverComeBack() throws {
        for reason in ["bye", "deleted", "expired"] {
            let session = try store.createSession(scene: "echo")
            type("secret", into: session)
            switch reason {
            case "bye": _ = session.handle(.bye)
            case "deleted": store.end(session, reason: "deleted")
            default: scheduler.advanceTo(scheduler.clock + 31)
            }
            XCTAssertTrue(session.isEnded, reason)
            let (fresh, resumed) = try store.resumeOrCreate(scene: "echo", token: session.id)
            XCTAssertFalse(resumed, reason)
            XCTAssertNotEqual(fresh.id, session.id)
            XCTAssertEqual(output(of: fresh), "", reason)
        }
    }

    // MARK: - Shared scenes

    /// On the shared board, A's answers (acks, errors, its resync `scene` with its token)
    /// go to A only; B sees the shared changes as plain patches and nothing that is A's.
    func testSharedSceneKeepsPerConnectionStateToItsConnection() throws {
        let a = try store.createSession(scene: "board")
        let b = try store.createSession(scene: "board")
        var toA: [ServerMessage] = []
        var toB: [ServerMessage] = []
        let clientA = a.connect { toA.append($0) }
        _ = b.connect { toB.append($0) }
        scheduler.advanceTo(scheduler.clock + 1)
        toA = []
        toB = []

        clientA.receive(.event(EventMessage(seq: 1, target: "sharedSlider", event: "valueChanged", value: .number(0.5))))
        clientA.receive(.event(EventMessage(seq: 2, target: "nope", event: "touchUpInside")))
        clientA.receive(.event(EventMessage(seq: 3, target: "sharedSlider", event: "valueChanged", value: .string("x"))))
        clientA.receive(text: "{not json")
        clientA.receive(.resync(seq: 4))
        clientA.receiveBinary()
        scheduler.advanceTo(scheduler.clock + 1)

        XCTAssertEqual(toA.compactMap(\.ack), [1, 2, 3, 4], "A gets an answer per message")
        guard case .scene(let resync)? = toA.first(where: { if case .scene = $0 { return true } else { return false } }) else {
            return XCTFail("no resync answer")
        }
        XCTAssertEqual(resync.session, a.id)

        XCTAssertEqual(toB, [.patch(PatchMessage(changes: [PatchChange(target: "sharedSlider", prop: "value",
                                                                       value: .number(0.5))]))])
        let seenByB = toB.map(MessageEncoder.encode).joined()
        XCTAssertFalse(seenByB.contains(a.id))
        XCTAssertEqual(b.sceneMessage(resumed: true).session, b.id)
        XCTAssertFalse(MessageEncoder.encode(.scene(b.sceneMessage(resumed: true))).contains(a.id))
    }

    // MARK: - Helpers

    private static func decodeBase64url(_ text: String) -> [UInt8]? {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var bits: UInt32 = 0
        var bitCount = 0
        var out: [UInt8] = []
        for character in text {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            bits = bits << 6 | UInt32(value)
            bitCount += 6
            if bitCount >= 8 {
                bitCount -= 8
                out.append(UInt8(truncatingIfNeeded: bits >> UInt32(bitCount)))
            }
        }
        return out
    }
}
