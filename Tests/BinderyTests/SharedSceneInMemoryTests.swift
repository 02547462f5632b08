@testable import Bindery
import EventLoop
import Foundation
import LoopTestSupport
import BinderyTesting
import RxWidgets
import XCTest

/// A shared board spanning several "processes" (stores with their own cluster member, on
/// one test loop) through one ``InMemorySharedSceneStreams``: the cluster's behaviour
/// without redis-server, next to the real-Redis tests (``SharedSceneClusterTests``).
final class SharedSceneInMemoryTests: XCTestCase {
    private var runner: LoopThread!
    private var box: LoopBox<InMemorySharedSceneStreams>!
    /// Milliseconds added to the wall clock: the test moves the streams' time on.
    private let offset = LoopBox<UInt64>(0)
    private var nodes: [SharedSceneNode] = []
    /// Every member's log lines.
    private let log = Recorder<String>()

    override func setUpWithError() throws {
        runner = try LoopThread()
        try makeStreams()
    }

    /// New streams (before any node) whose outbox keeps `outboxMaxLength` entries.
    private func makeStreams(outboxMaxLength: Int = 10_000) throws {
        let offset = self.offset
        box = try runner.sync { [runner] in
            let streams = InMemorySharedSceneStreams(loop: runner!.loop, outboxMaxLength: outboxMaxLength)
            let wall = streams.clock
            streams.clock = { wall() + offset.value }
            return LoopBox(streams)
        }
    }

    override func tearDown() {
        if let runner {
            _ = try? runner.sync { [nodes] in
                for node in nodes {
                    node.cluster.abandon()
                    node.store.endAll()
                }
            }
            runner.stop()
        }
        nodes = []
    }

    private func makeNodes(_ count: Int, viewersEach: Int = 1,
                           configuration: SharedSceneCluster.Configuration = SharedSceneCluster.Configuration()) throws -> [SharedSceneNode] {
        let box = self.box!
        let log = self.log
        let made = try runner.sync { [runner] in
            try (0..<count).map { index in
                let node = SharedSceneNode(name: "p\(index)", streams: box.value, loop: runner!.loop, configuration: configuration)
                node.cluster.logger = { log.append("p\(index): \($0)") }
                for _ in 0..<viewersEach { try node.addViewer() }
                return node
            }
        }
        nodes += made
        return made
    }

    private func sync<T: Sendable>(_ body: @escaping @Sendable () throws -> T) throws -> T {
        try runner.sync(body)
    }

    private func waitForOneOwner(_ nodes: [SharedSceneNode], file: StaticString = #filePath, line: UInt = #line) throws -> SharedSceneNode {
        XCTAssertTrue(eventually { ((try? sync { nodes.filter(\.isOwner).count }) ?? 0) == 1 }, "no single owner", file: file, line: line)
        guard let owner = try sync({ nodes.first { $0.isOwner } }) else { throw TestError("no owner") }
        return owner
    }

    /// The board's outbox entries that answer events: "origin#seq" each.
    private func appliedEvents() throws -> [String] {
        let box = self.box!
        return try sync {
            box.value.outbox(scene: "board").compactMap { entry -> String? in
                guard let origin = entry["o"], !origin.isEmpty, let answer = entry["a"],
                      case .patch(let patch)? = try? MessageDecoder.decodeServerMessage(answer), let ack = patch.ack else { return nil }
                return "\(origin)#\(ack)"
            }
        }
    }

    private func engineSlider(_ node: SharedSceneNode) throws -> Float? {
        try sync { (node.cluster.engine(of: "board")?.tree.widget(withID: "sharedSlider") as? Slider)?.value }
    }

    // MARK: - Edges and owner

    func testAnEditOnOneNodeIsAnsweredToItsSenderAndPatchedToEveryoneElse() throws {
        let nodes = try makeNodes(3)
        _ = try waitForOneOwner(nodes)
        let neighbour = try sync { try nodes[1].addViewer() }
        try sync { nodes[1].viewers[0].slide(to: 0.4) }
        XCTAssertTrue(eventually { (try? self.sync { nodes[1].viewers[0].acks == [1] }) == true }, "the sender's answer")
        XCTAssertTrue(eventually { (try? self.sync { nodes.allSatisfy { $0.viewers.allSatisfy { $0.slider == 0.4 } } }) == true },
                      "every viewer on every node")
        try sync {
            let sender = nodes[1].viewers[0]
            XCTAssertEqual(sender.errors, [])
            for node in nodes {
                for viewer in node.viewers where viewer !== sender {
                    XCTAssertEqual(viewer.acks, [], "\(node.cluster.processID): an answer for someone else")
                    XCTAssertEqual(viewer.sliderSequence, [0.4], "\(node.cluster.processID): the patch")
                }
            }
            XCTAssertTrue(neighbour.acks.isEmpty)
        }
        XCTAssertEqual(try appliedEvents(), ["p1#1"], "applied once")
        XCTAssertEqual(try engineSlider(try waitForOneOwner(nodes)), 0.4)
        // Only the owner runs the scene: every store's own instance is a shell.
        try sync { for node in nodes { XCTAssertNil(node.viewers[0].session.controller) } }
    }

    func testEventsFromEveryNodeAreAppliedOnceInOneOrder() throws {
        let nodes = try makeNodes(3)
        _ = try waitForOneOwner(nodes)
        let rounds = 20
        try sync {
            for round in 0..<rounds {
                for (index, node) in nodes.enumerated() { node.viewers[0].slide(to: Double(index * 100 + round + 1) / 1000) }
            }
        }
        XCTAssertTrue(eventually { (try? self.sync { nodes.allSatisfy { $0.viewers[0].acks == Array(1...rounds) } }) == true },
                      "every event acknowledged, in order")
        let applied = try appliedEvents()
        XCTAssertEqual(applied.count, 3 * rounds)
        XCTAssertEqual(Set(applied).count, applied.count, "an event applied twice")
        let last = try XCTUnwrap(try engineSlider(try waitForOneOwner(nodes)))
        XCTAssertTrue(eventually {
            (try? self.sync { nodes.allSatisfy { $0.viewers[0].slider.map { abs(Float($0) - last) < 1e-6 } == true } }) == true
        }, "every viewer ends on the owner's value")
    }

    func testALaggingNodeCatchesUpOnceDeliveryResumes() throws {
        let nodes = try makeNodes(3)
        _ = try waitForOneOwner(nodes)
        let box = self.box!
        let lagging = nodes[2]
        let scenesBefore = try sync {
            box.value.holdOutbox(true, for: "p2")
            return lagging.viewers[0].scenesReceived
        }
        try sync { for step in 1...5 { nodes[0].viewers[0].slide(to: Double(step) / 10) } }
        try sync { lagging.viewers[0].slide(to: 0.9) }
        XCTAssertTrue(eventually { (try? self.sync { nodes[0].viewers[0].acks.count == 5 && nodes[1].viewers[0].slider == 0.9 }) == true },
                      "the others are served")
        usleep(200_000)
        try sync {
            XCTAssertEqual(lagging.viewers[0].acks, [], "its answer waits in the held outbox")
            XCTAssertEqual(lagging.viewers[0].sliderSequence, [], "nothing reached it")
        }
        try sync { box.value.holdOutbox(false, for: "p2") }
        XCTAssertTrue(eventually { (try? self.sync { lagging.viewers[0].acks == [1] && lagging.viewers[0].slider == 0.9 }) == true },
                      "caught up, its answer included")
        try sync {
            XCTAssertTrue(SharedSceneClusterTests.isSubsequence(lagging.viewers[0].sliderSequence, of: [0.1, 0.2, 0.3, 0.4, 0.5, 0.9]),
                          "\(lagging.viewers[0].sliderSequence)")
            XCTAssertEqual(lagging.viewers[0].scenesReceived, scenesBefore, "no gap, no reload")
        }
    }

    func testANodeBehindTheTrimmedOutboxReloadsTheSnapshot() throws {
        try makeStreams(outboxMaxLength: 8)
        let nodes = try makeNodes(2, configuration: SharedSceneCluster.Configuration(outboxMaxLength: 8))
        _ = try waitForOneOwner(nodes)
        let box = self.box!
        let (writer, lagging) = (nodes[0], nodes[1])
        let scenesBefore = try sync {
            box.value.holdOutbox(true, for: "p1")
            return lagging.viewers[0].scenesReceived
        }
        // One at a time: a batch longer than the outbox would be trimmed before even its
        // sender read it (exact trimming; Redis's `~` keeps whole nodes of 100 entries).
        for step in 1...20 {
            try sync { writer.viewers[0].slide(to: Double(step) / 100) }
            XCTAssertTrue(eventually { (try? self.sync { writer.viewers[0].acks.count == step }) == true })
        }
        XCTAssertEqual(try sync { box.value.outbox(scene: "board").count }, 8, "trimmed to its length")
        try sync { box.value.holdOutbox(false, for: "p1") }
        // It notices the gap, reloads the snapshot and gives its viewer the whole scene again.
        XCTAssertTrue(eventually { (try? self.sync { lagging.viewers[0].slider == 0.2 }) == true }, "caught up")
        XCTAssertEqual(try sync { lagging.viewers[0].scenesReceived }, scenesBefore + 1)
        try sync { writer.viewers[0].slide(to: 0.7) }
        XCTAssertTrue(eventually { (try? self.sync { lagging.viewers[0].slider == 0.7 }) == true }, "follows again")
    }

    func testAnHTTPEventIsAnsweredWithTheOwnersAnswer() throws {
        let nodes = try makeNodes(2)
        let owner = try waitForOneOwner(nodes)
        let edge = nodes.first { $0 !== owner }!
        let answers = Recorder<String>()
        try sync {
            let session = edge.viewers[0].session
            guard let link = session.host?.sharedLink else { throw TestError("not linked") }
            link.answering({ answers.append($0.map { MessageEncoder.encode($0) } ?? "null") }) { reply in
                session.handle(text: #"{"type":"event","seq":7,"target":"sharedSlider","event":"valueChanged","value":0.25}"#,
                               from: nil, reply: reply)
            }
        }
        XCTAssertTrue(answers.wait(for: 1, timeout: 5), "answered")
        XCTAssertTrue(answers.values[0].hasPrefix(#"{"type":"patch","ack":7"#), answers.values[0])
        XCTAssertTrue(eventually { (try? self.sync { nodes.allSatisfy { $0.viewers[0].slider == 0.25 } }) == true })
    }

    func testAnotherNodeTakesOverFromTheSnapshotWhenTheOwnerStopsWithNoEventLost() throws {
        let nodes = try makeNodes(3)
        let owner = try waitForOneOwner(nodes)
        let survivors = nodes.filter { $0 !== owner }
        try sync { for round in 0..<10 { for (index, node) in nodes.enumerated() { node.viewers[0].slide(to: Double(index * 100 + round + 1) / 1000) } } }
        XCTAssertTrue(eventually { (try? self.sync { nodes.allSatisfy { $0.viewers[0].acks.count == 10 } }) == true })
        let box = self.box!
        let epochBefore = try sync { box.value.lease(scene: "board").epoch }

        // A drain: the lease is given up, a survivor takes over from the snapshot.
        try sync { owner.cluster.stop() }
        try sync { for round in 10..<20 { for (index, node) in survivors.enumerated() { node.viewers[0].slide(to: Double(index * 100 + round + 1) / 1000) } } }
        let newOwner = try waitForOneOwner(survivors)
        XCTAssertTrue(eventually { (try? self.sync { survivors.allSatisfy { $0.viewers[0].acks == Array(1...20) } }) == true },
                      "the events sent during the takeover are applied too")
        XCTAssertEqual(try sync { box.value.lease(scene: "board") }.holder, newOwner.cluster.processID)
        XCTAssertEqual(try sync { box.value.lease(scene: "board").epoch }, epochBefore + 1)
        let applied = try appliedEvents()
        XCTAssertEqual(applied.count, 50)
        XCTAssertEqual(Set(applied).count, 50, "an event applied twice")
        for node in nodes {
            let count = node === owner ? 10 : 20
            for seq in 1...count { XCTAssertTrue(applied.contains("\(node.cluster.processID)#\(seq)"), "\(node.cluster.processID) seq \(seq) lost") }
        }
        let final = try XCTUnwrap(try engineSlider(newOwner))
        XCTAssertTrue(eventually {
            (try? self.sync { survivors.allSatisfy { $0.viewers[0].slider.map { abs(Float($0) - final) < 1e-6 } == true } }) == true
        }, "the survivors' viewers agree with the new owner's scene")
        XCTAssertTrue(eventually { (try? self.sync { box.value.snapshot(scene: "board").epoch }) == epochBefore + 1 },
                      "the new owner snapshots under its epoch")
    }

    func testAnOwnerThatDiesIsReplacedOnlyOnceItsLeaseRunsOut() throws {
        // A lease far longer than the test: only the streams' clock lets it run out.
        let configuration = SharedSceneCluster.Configuration(leaseDuration: .seconds(60))
        let nodes = try makeNodes(2, configuration: configuration)
        let owner = try waitForOneOwner(nodes)
        let survivor = nodes.first { $0 !== owner }!
        try sync { survivor.viewers[0].slide(to: 0.2) }
        XCTAssertTrue(eventually { (try? self.sync { survivor.viewers[0].acks == [1] }) == true })

        try sync { owner.cluster.abandon() }  // a crash: no word to the streams
        try sync { survivor.viewers[0].slide(to: 0.6) }
        usleep(1_200_000)  // two ticks: the survivor tried to take the lease
        XCTAssertFalse(try sync { survivor.isOwner }, "taken over while the lease held")
        XCTAssertEqual(try sync { survivor.viewers[0].acks }, [1], "acknowledged with no live owner")

        try sync { [offset] in offset.value += 61_000 }
        XCTAssertTrue(eventually { (try? self.sync { survivor.isOwner }) == true }, "taken over once the lease ran out")
        XCTAssertTrue(eventually { (try? self.sync { survivor.viewers[0].acks == [1, 2] && survivor.viewers[0].slider == 0.6 }) == true },
                      "the event sent meanwhile is applied by the new owner")
        XCTAssertEqual(try appliedEvents(), ["p\(nodes.firstIndex { $0 === survivor }!)#1", "p\(nodes.firstIndex { $0 === survivor }!)#2"])
        XCTAssertEqual(try engineSlider(survivor), 0.6)
    }

    func testAStaleOwnersCommitIsRefused() throws {
        let nodes = try makeNodes(2)
        let owner = try waitForOneOwner(nodes)
        let other = nodes.first { $0 !== owner }!
        try sync { owner.viewers[0].slide(to: 0.25) }
        XCTAssertTrue(eventually { (try? self.sync { owner.viewers[0].acks == [1] }) == true })
        let box = self.box!
        // Another process took the lease behind the owner's back (it was paused, say).
        let (epoch, before) = try sync {
            (box.value.seizeLease(scene: "board", holder: "elsewhere", duration: .seconds(60)), box.value.outbox(scene: "board").count)
        }
        try sync { other.viewers[0].slide(to: 0.75) }
        XCTAssertTrue(eventually(timeout: 3) { (try? self.sync { !owner.isOwner }) == true }, "the stale owner steps down")
        usleep(300_000)
        XCTAssertEqual(try sync { box.value.outbox(scene: "board").count }, before, "a fenced owner wrote to the outbox")
        XCTAssertEqual(try sync { box.value.snapshot(scene: "board").epoch }, epoch - 1)
        XCTAssertEqual(try sync { other.viewers[0].acks }, [], "acknowledged while the scene has no live owner")
        let ownerName = try sync { owner.cluster.processID }
        XCTAssertTrue(log.values.contains { $0.hasPrefix("\(ownerName): shared scene 'board': no longer owner (")
            && ($0.contains("FENCED") || $0.contains("lease taken")) }, "\(log.values)")

        // The lease frees up: a real owner takes over and the waiting event is applied.
        try sync { box.value.expireLease(scene: "board") }
        XCTAssertTrue(eventually { (try? self.sync { other.viewers[0].acks == [1] }) == true }, "the waiting event applied")
        XCTAssertTrue(eventually { (try? self.sync { nodes.allSatisfy { $0.viewers[0].slider == 0.75 } }) == true })
        XCTAssertTrue(eventually { (try? self.sync { box.value.snapshot(scene: "board").epoch }) == epoch + 1 })
    }

    func testAnUnavailableStoreIsStoreUnavailableForTheSender() throws {
        let nodes = try makeNodes(1)
        _ = try waitForOneOwner(nodes)
        let box = self.box!
        try sync {
            box.value.isAvailable = false
            nodes[0].viewers[0].slide(to: 0.5)
        }
        XCTAssertTrue(eventually { (try? self.sync { nodes[0].viewers[0].errors.count == 1 }) == true }, "refused, not left hanging")
        try sync {
            let error = nodes[0].viewers[0].errors[0]
            XCTAssertEqual(error.code, .storeUnavailable)
            XCTAssertEqual(error.ack, 1)
        }
    }
}
