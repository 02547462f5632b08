@testable import Bindery
import EventLoop
import Foundation
import LoopTestSupport
import Redis
import RxWidgets
import XCTest

/// A shared board spanning several "processes" (stores with their own cluster member and
/// Redis connections, on one test loop) through a real redis-server.
final class SharedSceneClusterTests: SharedSceneClusterTestCase {
    private func owner(among nodes: [SharedSceneNode]) throws -> SharedSceneNode? {
        try sync { nodes.first { $0.isOwner } }
    }

    private func waitForOneOwner(_ nodes: [SharedSceneNode], file: StaticString = #filePath, line: UInt = #line) throws -> SharedSceneNode {
        XCTAssertTrue(eventually { ((try? sync { nodes.filter(\.isOwner).count }) ?? 0) == 1 }, "no single owner", file: file, line: line)
        guard let owner = try owner(among: nodes) else { throw TestError("no owner") }
        return owner
    }

    // MARK: - One scene, one order

    func testEventsFromEveryProcessAreAppliedOnceInOneOrderAndEveryViewerEndsOnTheSameValue() throws {
        let nodes = try makeNodes(3)
        _ = try waitForOneOwner(nodes)
        let perViewer = 40
        try sync {
            for round in 0..<perViewer {
                for (index, node) in nodes.enumerated() {
                    node.viewers[0].slide(to: Double(index * 100 + round + 1) / 1000)
                }
            }
        }
        XCTAssertTrue(eventually { (try? self.sync { nodes.allSatisfy { $0.viewers[0].acks.count == perViewer } }) == true },
                      "every event is acknowledged")

        // The outbox holds each event once; its order is the order everyone saw.
        let outbox = try probe.outbox()
        let eventEntries = outbox.filter { !$0.origin.isEmpty }
        XCTAssertEqual(eventEntries.count, 3 * perViewer)
        var seen = Set<String>()
        var order: [Double] = []
        for entry in eventEntries {
            guard case .patch(let answer) = try MessageDecoder.decodeServerMessage(entry.answer), let ack = answer.ack else {
                return XCTFail("answer is not an acknowledging patch: \(entry.answer)")
            }
            XCTAssertTrue(seen.insert("\(entry.origin)#\(ack)").inserted, "\(entry.origin) seq \(ack) applied twice")
            guard case .patch(let patch) = try MessageDecoder.decodeServerMessage(entry.patch),
                  case .value(.number(let value))? = patch.changes.first(where: { $0.target == "sharedSlider" })?.update else {
                return XCTFail("no slider change in \(entry.patch)")
            }
            order.append(value)
        }
        let globalOrder = order
        // Waits for the last patches to reach every viewer.
        XCTAssertTrue(eventually { (try? self.sync { nodes.allSatisfy { $0.viewers[0].slider == globalOrder.last } }) == true })
        try sync {
            for node in nodes {
                let viewer = node.viewers[0]
                XCTAssertEqual(viewer.acks, Array(1...perViewer), "acks in order")
                XCTAssertEqual(viewer.errors, [])
                // One order: the values it saw are the global order's, in that order (a batch's
                // patches reach a viewer merged, so a value set and replaced within one batch
                // may be skipped), its own events' values included, ending on the last one.
                XCTAssertTrue(Self.isSubsequence(viewer.sliderSequence, of: globalOrder),
                              "\(node.cluster.processID) saw another order: \(viewer.sliderSequence)")
                let own = globalOrder.filter { Int(($0 * 1000).rounded()) / 100 == nodes.firstIndex { $0 === node }! }
                XCTAssertTrue(Self.isSubsequence(own, of: viewer.sliderSequence), "its own values are all there")
                XCTAssertEqual(viewer.sliderSequence.last, globalOrder.last)
            }
        }
        // A newcomer on any process gets the current value in its scene.
        let late = try sync { try nodes[1].addViewer().slider }
        XCTAssertEqual(late, order.last)
    }

    func testOnlyTheOwnerRunsTheScene() throws {
        let nodes = try makeNodes(3)
        let owner = try waitForOneOwner(nodes)
        XCTAssertTrue(eventually { (try? self.sync { owner.cluster.engine(of: "board") != nil }) == true })
        try sync {
            for node in nodes {
                // Every store's own instance is a shell; the scene runs in the owner's engine.
                XCTAssertNil(node.viewers[0].session.controller, "\(node.cluster.processID) runs the scene")
                XCTAssertEqual(node.cluster.engine(of: "board") != nil, node === owner)
            }
        }
    }

    func testAProcessThatFellBehindTheTrimmedOutboxReloadsTheSnapshot() throws {
        let nodes = try makeNodes(2)
        _ = try waitForOneOwner(nodes)
        let (writer, lagging) = (nodes[0], nodes[1])
        let scenesBefore = try sync {
            lagging.cluster.holdOutbox(true)
            return lagging.viewers[0].scenesReceived
        }
        try sync { for step in 1...5 { writer.viewers[0].slide(to: Double(step) / 10) } }
        XCTAssertTrue(eventually { (try? self.sync { writer.viewers[0].acks.count == 5 }) == true })
        _ = try probe.call(["XTRIM", "bindery:scene:board:out", "MAXLEN", "0"])  // what it missed is gone
        try sync { lagging.cluster.holdOutbox(false) }
        try sync { writer.viewers[0].slide(to: 0.6) }
        // It notices the gap, reloads the snapshot and gives its viewer the whole scene again.
        XCTAssertTrue(eventually { (try? self.sync { lagging.viewers[0].slider == 0.6 }) == true }, "caught up")
        XCTAssertEqual(try sync { lagging.viewers[0].scenesReceived }, scenesBefore + 1)
        try sync { writer.viewers[0].slide(to: 0.7) }
        XCTAssertTrue(eventually { (try? self.sync { lagging.viewers[0].slider == 0.7 }) == true }, "follows again")
    }

    // MARK: - Viewer counts

    func testViewerCountIsTheSumOverLiveProcesses() throws {
        let nodes = try makeNodes(3, viewersEach: 0)
        try sync {
            try nodes[0].addViewer()
            try nodes[1].addViewer()
            try nodes[1].addViewer()
            try nodes[2].addViewer()
        }
        let owner = try waitForOneOwner(nodes)
        let survivors = nodes.filter { $0 !== owner }
        XCTAssertTrue(eventually {
            (try? self.sync { nodes.allSatisfy { $0.viewers.allSatisfy { $0.viewerText == "4 online" } } }) == true
        }, "4 online everywhere")

        // One more viewer anywhere is counted within the round trip.
        try sync { try survivors[0].addViewer() }
        XCTAssertTrue(eventually(timeout: 2) {
            (try? self.sync { nodes.allSatisfy { $0.viewers.allSatisfy { $0.viewerText == "5 online" } } }) == true
        }, "5 online within 2 s")

        // A process that dies without a word drops out when its count goes stale.
        let gone = try sync { survivors[1].viewers.count }
        let started = Date()
        try sync { survivors[1].cluster.abandon() }
        let expected = "\(5 - gone) online"
        XCTAssertTrue(eventually(timeout: 5) {
            (try? self.sync { [owner, survivors] in
                (owner.viewers + survivors[0].viewers).allSatisfy { $0.viewerText == expected }
            }) == true
        }, "dead process's viewers dropped")
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertLessThanOrEqual(elapsed, 2.5, "count corrected in \(elapsed) s")
    }

    // MARK: - Owner death

    func testOwnerDeathHandsTheSceneToAnotherProcessFromTheSnapshotWithNoAcknowledgedEventLost() throws {
        let nodes = try makeNodes(3)
        let owner = try waitForOneOwner(nodes)
        let survivors = nodes.filter { $0 !== owner }

        // Events flow from every process; the owner dies in the middle.
        for round in 0..<20 {
            try sync { for (index, node) in nodes.enumerated() { node.viewers[0].slide(to: Double(index * 100 + round + 1) / 1000) } }
            usleep(5_000)
        }
        let ackedBeforeDeath = try sync { nodes.map { $0.viewers[0].acks } }
        let killedAt = Date()
        try sync { owner.cluster.abandon() }
        for round in 20..<40 {
            try sync { for (index, node) in survivors.enumerated() { node.viewers[0].slide(to: Double(index * 100 + round + 1) / 1000) } }
            usleep(5_000)
        }
        let newOwner = try waitForOneOwner(survivors)
        let failover = Date().timeIntervalSince(killedAt)
        XCTAssertLessThanOrEqual(failover, 2.5, "failover took \(failover) s")
        XCTAssertTrue(eventually { (try? self.sync { survivors.allSatisfy { $0.viewers[0].acks.count == 40 } }) == true },
                      "every survivor's event acknowledged, those sent during the failover too")

        // Every acknowledged event is in the outbox once, the dead owner's own included.
        let outbox = try probe.outbox()
        var applied: [String: Int] = [:]
        for entry in outbox where !entry.origin.isEmpty {
            if case .patch(let answer) = try MessageDecoder.decodeServerMessage(entry.answer), let ack = answer.ack {
                applied["\(entry.origin)#\(ack)", default: 0] += 1
            }
        }
        XCTAssertTrue(applied.values.allSatisfy { $0 == 1 }, "an event applied twice")
        for (index, node) in nodes.enumerated() {
            let acked = node === owner ? ackedBeforeDeath[index] : try sync { node.viewers[0].acks }
            for seq in acked {
                XCTAssertEqual(applied["\(node.cluster.processID)#\(seq)"], 1, "acknowledged \(node.cluster.processID) seq \(seq) lost")
            }
        }
        // The survivors agree with the new owner's scene.
        let final = try sync { (newOwner.store.sharedScenes?.engine(of: "board")?.tree.widget(withID: "sharedSlider") as? Slider)?.value }
        let finalValue = try XCTUnwrap(final)
        XCTAssertTrue(eventually {
            (try? self.sync {
                let values = survivors.compactMap { $0.viewers[0].slider }
                return values.count == survivors.count && Set(values).count == 1 && abs(Float(values[0]) - finalValue) < 1e-6
            }) == true
        }, "survivors' viewers agree with the new owner's scene")
        let epoch = try probe.call(["HGET", "bindery:scene:board:snap", "epoch"]).integer
        XCTAssertEqual(epoch, 2, "the new owner commits under the next epoch")
    }

    func testANewOwnerAppliesTheOutboxAfterAnOlderSnapshotWithNoAcknowledgedEventLost() throws {
        // A snapshot only with an ownership's first commit: everything after it is in the
        // outbox alone when the owner dies.
        let configuration = SharedSceneCluster.Configuration(snapshotInterval: .seconds(3600))
        let nodes = try makeNodes(2, configuration: configuration)
        let owner = try waitForOneOwner(nodes)
        let survivor = nodes.first { $0 !== owner }!
        // The ownership's first commit (viewer counts) writes a snapshot; none after it.
        XCTAssertTrue(eventually { (try? self.probe.call(["HGET", "bindery:scene:board:snap", "v"]).integer) != nil },
                      "the ownership's first snapshot")
        let firstSnapshot = try XCTUnwrap(try probe.call(["HGET", "bindery:scene:board:snap", "v"]).integer)
        for step in 1...12 {
            try sync { nodes[step % 2].viewers[0].slide(to: Double(step) / 100) }
            usleep(3_000)
        }
        XCTAssertTrue(eventually { (try? self.sync { nodes.allSatisfy { $0.viewers[0].acks.count == 6 } }) == true })
        let snapshotVersion = try XCTUnwrap(try probe.call(["HGET", "bindery:scene:board:snap", "v"]).integer)
        let newest = try probe.call(["XREVRANGE", "bindery:scene:board:out", "+", "-", "COUNT", "1"])
        let newestFields = newest.array?.first?.array?[1].array?.compactMap(\.string) ?? []
        let outboxVersion = try XCTUnwrap(newestFields.firstIndex(of: "v").flatMap { Int(newestFields[$0 + 1]) })
        XCTAssertEqual(snapshotVersion, firstSnapshot, "no snapshot after the first")
        XCTAssertGreaterThanOrEqual(outboxVersion - Int(snapshotVersion), 12, "the snapshot lags the 12 events")

        let committed = try sync { (owner.cluster.engine(of: "board")?.tree.widget(withID: "sharedSlider") as? Slider)?.value }
        try sync { owner.cluster.abandon() }
        XCTAssertTrue(eventually { (try? self.sync { survivor.isOwner }) == true }, "no takeover")
        // The new owner's scene is the last acknowledged value, not the snapshot's.
        XCTAssertTrue(eventually {
            (try? self.sync { (survivor.cluster.engine(of: "board")?.tree.widget(withID: "sharedSlider") as? Slider)?.value }) == committed
        }, "the new owner's scene is the old owner's last commit")
        // It goes on from there with the next version (no gap for the edges) and no event
        // of the tail applied twice.
        try sync { survivor.viewers[0].slide(to: 0.5) }
        XCTAssertTrue(eventually { (try? self.sync { survivor.viewers[0].acks.count == 7 && survivor.viewers[0].slider == 0.5 }) == true })
        let applied = try probe.outbox().filter { !$0.origin.isEmpty }
        XCTAssertEqual(applied.count, 13, "each event once in the outbox")
        // The snapshot is written again under the new epoch.
        XCTAssertEqual(try probe.call(["HGET", "bindery:scene:board:snap", "epoch"]).integer, 2)
    }

    func testTheSnapshotCatchesUpWithTheOutboxWithinItsIntervalWithNoFurtherCommit() throws {
        let configuration = SharedSceneCluster.Configuration(snapshotInterval: .seconds(1))
        let nodes = try makeNodes(2, configuration: configuration)
        _ = try waitForOneOwner(nodes)
        usleep(100_000)  // the ownership's first commit (and snapshot) is behind us
        try sync { for step in 1...4 { nodes[0].viewers[0].slide(to: Double(step) / 10) } }
        XCTAssertTrue(eventually { (try? self.sync { nodes[0].viewers[0].acks.count == 4 }) == true })
        func versions() throws -> (snapshot: Int, outbox: Int) {
            let snapshot = Int(try probe.call(["HGET", "bindery:scene:board:snap", "v"]).integer ?? 0)
            let newest = try probe.call(["XREVRANGE", "bindery:scene:board:out", "+", "-", "COUNT", "1"])
            let fields = newest.array?.first?.array?[1].array?.compactMap(\.string) ?? []
            return (snapshot, fields.firstIndex(of: "v").flatMap { Int(fields[$0 + 1]) } ?? -1)
        }
        let early = try versions()
        XCTAssertLessThan(early.snapshot, early.outbox, "the snapshot waits for its interval")
        XCTAssertTrue(eventually(timeout: 3) { (try? versions()).map { $0.snapshot == $0.outbox } == true },
                      "the snapshot is written once the interval is over, with no event after")
        let out = try probe.call(["HGET", "bindery:scene:board:snap", "out"]).string
        let newest = try probe.call(["XREVRANGE", "bindery:scene:board:out", "+", "-", "COUNT", "1"])
        XCTAssertEqual(out, newest.array?.first?.array?.first?.string, "it names the newest outbox entry")
    }

    func testAnEdgeThatReloadsFromALaggingSnapshotCatchesUpFromTheOutbox() throws {
        let configuration = SharedSceneCluster.Configuration(snapshotInterval: .seconds(3600))
        let nodes = try makeNodes(2, configuration: configuration)
        _ = try waitForOneOwner(nodes)
        try sync { for step in 1...5 { nodes[0].viewers[0].slide(to: Double(step) / 10) } }
        XCTAssertTrue(eventually { (try? self.sync { nodes[0].viewers[0].acks.count == 5 }) == true })
        // A process that comes now loads the old snapshot and applies the outbox after it.
        let endpoint = redis.endpoint
        let late = try runner.sync { [runner] in
            let node = SharedSceneNode(name: "late", endpoint: endpoint, loop: runner!.loop, configuration: configuration)
            try node.addViewer()
            return node
        }
        self.nodes.append(late)
        XCTAssertTrue(eventually { (try? self.sync { late.viewers[0].slider == 0.5 }) == true }, "caught up")
    }

    func testAStateTheSceneEncodesItselfSurvivesItsOwner() throws {
        let nodes = try makeNodes(2, viewersEach: 0)
        let viewers = try sync { try nodes.map { try $0.addViewer(scene: "tally") } }
        XCTAssertTrue(eventually { (try? self.sync { nodes.filter { $0.owns("tally") }.count == 1 }) == true })
        let ownerIndex = try sync { nodes.firstIndex { $0.owns("tally") }! }
        let survivor = 1 - ownerIndex
        try sync { for _ in 0..<3 { viewers[survivor].send("touchUpInside", to: "tap") } }
        XCTAssertTrue(eventually { (try? self.sync { viewers.allSatisfy { $0.text(of: "total") == "3" } }) == true })

        try sync { nodes[ownerIndex].cluster.abandon() }
        XCTAssertTrue(eventually { (try? self.sync { nodes[survivor].owns("tally") }) == true }, "no takeover")
        try sync { viewers[survivor].send("touchUpInside", to: "tap") }
        XCTAssertTrue(eventually { (try? self.sync { viewers[survivor].acks == [1, 2, 3, 4] }) == true })
        // Restored from the scene's own encoding: the count goes on, never back to 0.
        XCTAssertEqual(try sync { viewers[survivor].text(of: "total") }, "4")
    }

    func testAStaleOwnerIsFencedAndItsInboxIsNotLost() throws {
        let nodes = try makeNodes(2)
        let owner = try waitForOneOwner(nodes)
        let other = nodes.first { $0 !== owner }!
        try sync { owner.viewers[0].slide(to: 0.25) }
        XCTAssertTrue(eventually { (try? self.sync { owner.viewers[0].acks == [1] }) == true })

        // Another process took the lease behind the owner's back (it was paused, say):
        // the lease now names someone else and the epoch moved on.
        _ = try probe.call(["SET", "bindery:scene:board:owner", "elsewhere", "PX", "60000"])
        let epoch = try probe.call(["INCR", "bindery:scene:board:epoch"]).integer!
        let before = try probe.outbox().count
        try sync { other.viewers[0].slide(to: 0.75) }
        XCTAssertTrue(eventually(timeout: 3) { (try? self.sync { !owner.isOwner }) == true }, "the stale owner steps down")
        usleep(300_000)
        XCTAssertEqual(try probe.outbox().count, before, "a fenced owner wrote to the outbox")
        XCTAssertEqual(try probe.call(["HGET", "bindery:scene:board:snap", "epoch"]).integer, epoch - 1)
        XCTAssertEqual(try sync { other.viewers[0].acks }, [], "nobody may acknowledge while the scene has no live owner")

        // The lease frees up: a real owner takes over and the waiting event is applied.
        _ = try probe.call(["DEL", "bindery:scene:board:owner"])
        XCTAssertTrue(eventually { (try? self.sync { other.viewers[0].acks == [1] }) == true }, "the waiting event applied")
        XCTAssertTrue(eventually { (try? self.sync { nodes.allSatisfy { $0.viewers[0].slider == 0.75 } }) == true })
        XCTAssertEqual(try probe.call(["HGET", "bindery:scene:board:snap", "epoch"]).integer, epoch + 1)
    }

    func testASharedSceneSessionResumesOnAnotherProcessUnderItsToken() throws {
        let nodes = try makeNodes(2)
        _ = try waitForOneOwner(nodes)
        let token = try sync { nodes[0].viewers[0].session.id }
        let (resumed, id, same) = try sync {
            let resumed = try nodes[1].store.resumeOrCreate(scene: "board", token: token)
            let again = try nodes[1].store.resumeOrCreate(scene: "board", token: token)
            return (resumed.resumed, resumed.session.id, again.session === resumed.session)
        }
        XCTAssertTrue(resumed)
        XCTAssertEqual(id, token)
        XCTAssertTrue(same)
        // Not for malformed tokens, nor without a cluster.
        XCTAssertFalse(try sync { try nodes[1].store.resumeOrCreate(scene: "board", token: "short").resumed })
        let alone = try sync {
            let result = try SessionStore(registry: makeTestRegistry()).resumeOrCreate(scene: "board", token: token)
            return (result.resumed, result.session.id)
        }
        XCTAssertFalse(alone.0)
        XCTAssertNotEqual(alone.1, token)
    }

    func testABoardResumeWithAPerConnectionSessionsTokenIsRefusedAndLeavesThatSessionAlone() throws {
        let endpoint = redis.endpoint
        let (made, resumed, id, scene, token, epoch, closes) = try sync { [runner] in
            let persistence = InMemorySessionPersistence()
            let nodes = ["p0", "p1"].map { SharedSceneNode(name: $0, endpoint: endpoint, loop: runner!.loop, persistence: persistence) }
            let echo = try nodes[0].store.createSession(scene: "echo")
            var closes: [UInt16] = []
            let client = echo.connect { _ in }
            client.closeHandler = { code, _ in closes.append(code) }
            var outcome: (session: Session, resumed: Bool)?
            nodes[1].store.resumeOrCreate(scene: "board", token: echo.id) { outcome = try? $0.get() }
            return (nodes, outcome?.resumed, outcome?.session.id, outcome?.session.sceneName, echo.id,
                    persistence.sessions[echo.id]?.epoch, closes)
        }
        nodes += made
        XCTAssertEqual(resumed, false, "refused, as for an unknown token: a new board session")
        XCTAssertNotEqual(id, token)
        XCTAssertEqual(scene, "board")
        XCTAssertEqual(epoch, 1, "the echo session was not taken over")
        XCTAssertEqual(closes, [], "its owner's client stays")
        let heldThere: String? = try sync { made[1].store.session(id: token)?.id }
        XCTAssertNil(heldThere)
    }

    // MARK: - Without a cluster

    func testWithoutAClusterEachStoreKeepsItsOwnBoard() throws {
        let (first, second) = try sync {
            let first = SessionStore(registry: makeTestRegistry())
            let second = SessionStore(registry: makeTestRegistry())
            let a = SharedSceneViewer(session: try first.createSession(scene: "board"))
            let b = SharedSceneViewer(session: try second.createSession(scene: "board"))
            a.slide(to: 0.9)
            return (a, b)
        }
        try sync {
            XCTAssertEqual(first.acks, [1])
            XCTAssertEqual(first.slider, 0.9)
            XCTAssertNotEqual(second.slider, 0.9)
            XCTAssertEqual(first.viewerText, "1 online")
            first.session.store?.endAll()
            second.session.store?.endAll()
        }
    }

    /// Whether `part`'s elements appear in `whole` in the same order.
    static func isSubsequence(_ part: [Double], of whole: [Double]) -> Bool {
        var rest = whole[...]
        for value in part {
            guard let at = rest.firstIndex(of: value) else { return false }
            rest = rest[(at + 1)...]
        }
        return true
    }
}
