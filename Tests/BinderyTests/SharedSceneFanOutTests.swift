@testable import Bindery
@testable import BinderyCluster
import RxCore
import RxTesting
import RxWidgets
import XCTest

/// An edge's fan-out: answers at once, everybody else's patches in one merged message per
/// frame, and every client ending where applying every patch in turn would leave it.
final class SharedSceneFanOutTests: XCTestCase {
    private var scheduler: TestScheduler!
    private var store: SessionStore!
    private let base = [WidgetSnapshot(id: "slider", kind: "slider", properties: ["value": .number(0)]),
                        WidgetSnapshot(id: "list", kind: "table", properties: ["items": .rows([])])]

    /// An in-process client that applies what it gets to its own copy of the scene.
    private final class Viewer {
        let session: Session
        var client: SessionClient!
        var mirror: SharedSceneMirror
        var received: [ServerMessage] = []

        init(session: Session, widgets: [WidgetSnapshot]) {
            self.session = session
            mirror = SharedSceneMirror(widgets: widgets)
            client = session.connect { [unowned self] message in
                self.received.append(message)
                if case .patch(let patch) = message { self.mirror.apply(patch) }
            }
        }

        var slider: WidgetValue? { mirror.widgets.first { $0.id == "slider" }?.properties["value"] }
        var acks: [Int] { received.compactMap(\.ack) }
    }

    override func setUp() {
        scheduler = TestScheduler(initialClock: 0)
        store = SessionStore(registry: makeTestRegistry(), scheduler: scheduler, flushScheduler: scheduler)
    }

    private func viewers(_ count: Int) throws -> [Viewer] {
        try (0..<count).map { _ in Viewer(session: try store.createSession(scene: "echo"), widgets: base) }
    }

    private func slider(_ value: Double) -> PatchMessage {
        PatchMessage(changes: [PatchChange(target: "slider", prop: "value", value: .number(value))])
    }

    private func item(_ patch: PatchMessage, from sender: Viewer? = nil, ack: Int? = nil) -> SharedScenePatchBatch.Item {
        var item = SharedScenePatchBatch.Item(patch: patch, patchJSON: Array(MessageEncoder.encode(.patch(patch)).utf8))
        if let sender, let ack {
            item.sender = sender.client
            item.answer = .patch(PatchMessage(ack: ack, changes: []))
        }
        return item
    }

    private func batch(_ items: [SharedScenePatchBatch.Item]) -> SharedScenePatchBatch {
        var batch = SharedScenePatchBatch()
        for item in items { batch.append(item) }
        return batch
    }

    func testAViewerGetsNothingUntilTheFrameThenOneMergedPatch() throws {
        let viewers = try viewers(2)
        let fanOut = SharedSceneFanOut(widgets: base)
        fanOut.deliver(batch([item(slider(0.1)), item(slider(0.2))]))
        fanOut.deliver(batch([item(slider(0.3))]))
        XCTAssertTrue(viewers.allSatisfy { $0.received.isEmpty }, "patches wait for the frame")
        XCTAssertTrue(fanOut.hasPending)

        fanOut.flush(to: viewers.map(\.session))
        for viewer in viewers {
            XCTAssertEqual(viewer.received, [.patch(slider(0.3))], "three patches, one message")
        }
        XCTAssertFalse(fanOut.hasPending)
        XCTAssertEqual(fanOut.widgets.first?.properties["value"], .number(0.3), "a scene served now has the frame")
        fanOut.flush(to: viewers.map(\.session))
        XCTAssertEqual(viewers[0].received.count, 1, "an empty frame sends nothing")
    }

    func testASenderGetsItsAnswerAtOnceWithWhatCameBeforeItAndTheRestWithTheFrame() throws {
        let viewers = try viewers(2)
        let (sender, other) = (viewers[0], viewers[1])
        let fanOut = SharedSceneFanOut(widgets: base)
        fanOut.deliver(batch([item(slider(0.1))]))
        fanOut.deliver(batch([item(slider(0.2)), item(slider(0.5), from: sender, ack: 1), item(slider(0.7))]))

        // Before the frame: others' patches up to its event (merged), then its answer.
        XCTAssertEqual(sender.received, [.patch(slider(0.2)), .patch(PatchMessage(ack: 1, changes: []))])
        XCTAssertEqual(other.received, [])

        fanOut.flush(to: viewers.map(\.session))
        XCTAssertEqual(sender.received.count, 3)
        XCTAssertEqual(sender.received.last, .patch(slider(0.7)), "only what came after its answer")
        XCTAssertEqual(other.received, [.patch(slider(0.7))])
        XCTAssertEqual(sender.slider, .number(0.7))
        XCTAssertEqual(other.slider, .number(0.7))
    }

    func testListOperationsReachEveryClientExactlyOnce() throws {
        let viewers = try viewers(3)
        let fanOut = SharedSceneFanOut(widgets: base)
        func insert(_ id: String) -> PatchMessage {
            PatchMessage(changes: [PatchChange(target: "list", prop: "items", update: .ops([.insert(index: 0, rows: [ListRow(id: id)])]))])
        }
        var expected = SharedSceneMirror(widgets: base)
        var acks = 0
        for round in 0..<5 {
            var items: [SharedScenePatchBatch.Item] = []
            for (index, viewer) in viewers.enumerated() {
                let patch = insert("r\(round)v\(index)")
                expected.apply(patch)
                // Viewer 0 sends every other round; its answer leaves out nothing here.
                if index == 0, round % 2 == 0 {
                    acks += 1
                    var own = item(patch, from: viewer, ack: acks)
                    own.answer = .patch(PatchMessage(ack: acks, changes: patch.changes))
                    items.append(own)
                } else {
                    items.append(item(patch))
                }
            }
            fanOut.deliver(batch(items))
            if round == 2 { fanOut.flush(to: viewers.map(\.session)) }
        }
        fanOut.flush(to: viewers.map(\.session))
        for viewer in viewers {
            XCTAssertEqual(viewer.mirror.widgets, expected.widgets)
        }
        XCTAssertEqual(viewers[0].acks, [1, 2, 3])
        XCTAssertEqual(fanOut.widgets, expected.widgets)
    }

    func testAClientServedASceneMidFrameGetsTheWholeFrame() throws {
        let viewers = try viewers(1)
        let fanOut = SharedSceneFanOut(widgets: base)
        fanOut.deliver(batch([item(slider(0.1)), item(slider(0.4), from: viewers[0], ack: 1), item(slider(0.6))]))
        // Its connection is resynchronised (say after backpressure): the scene is the
        // frame's start, so it needs all of the frame, not just what followed its answer.
        fanOut.serving(viewers[0].session)
        viewers[0].mirror = SharedSceneMirror(widgets: fanOut.widgets)
        fanOut.flush(to: viewers.map(\.session))
        XCTAssertEqual(viewers[0].slider, .number(0.6))
        XCTAssertEqual(viewers[0].received.last, .patch(slider(0.6)))
    }

    func testAResetDropsTheFrame() throws {
        let viewers = try viewers(1)
        let fanOut = SharedSceneFanOut(widgets: base)
        fanOut.deliver(batch([item(slider(0.1))]))
        let reloaded = [WidgetSnapshot(id: "slider", kind: "slider", properties: ["value": .number(0.9)])]
        fanOut.reset(to: reloaded)
        XCTAssertFalse(fanOut.hasPending)
        fanOut.flush(to: viewers.map(\.session))
        XCTAssertEqual(viewers[0].received, [])
        XCTAssertEqual(fanOut.widgets, reloaded)
    }
}
