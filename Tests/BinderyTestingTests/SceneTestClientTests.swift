import Bindery
import BinderyTesting
import Foundation
import RxCore
import RxTesting
import RxWidgets
import XCTest

// The test client's rules, on a small scene made here: a slider mirrored into a label,
// a field whose text a binding rewrites, a button that starts a timed job, and a button
// whose binding fails.

private struct Boom: Error, CustomStringConvertible {
    var description: String { "boom" }
}

private final class ProbeViewController: ViewController, Scene {
    let slider = Slider(id: "slider")
    let mirror = Label(id: "mirror")
    let field = TextField(id: "field")
    let startButton = Button(id: "startButton")
    let failButton = Button(id: "failButton")
    let status = Label(id: "status")
    let viewers = Label(id: "viewers")

    let scheduler: SchedulerType
    let viewerCounts: Observable<Int>
    private let bag = DisposeBag()

    init(scheduler: SchedulerType, viewerCounts: Observable<Int>) {
        self.scheduler = scheduler
        self.viewerCounts = viewerCounts
        super.init()
    }

    var sceneWidgets: [(id: String, widget: View)] {
        [slider, mirror, field, startButton, failButton, status, viewers].map { ($0.id, $0) }
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        slider.value = 0.5
        slider.rx.value.map { "\($0)" }.bind(to: mirror.rx.text).disposed(by: bag)
        // A binding that rewrites the user's text: the sender must get it back.
        field.rx.text.orEmpty.map { $0.lowercased() }.bind(to: field.rx.text).disposed(by: bag)
        startButton.rx.tap
            .flatMapLatest { [scheduler] in
                Observable.just("done").delay(.seconds(2), scheduler: scheduler).startWith("waiting")
            }
            .bind(to: status.rx.text)
            .disposed(by: bag)
        failButton.rx.tap
            .map { _ -> String in throw Boom() }
            .bind(to: status.rx.text)
            .disposed(by: bag)
        viewerCounts.map { "\($0)" }.bind(to: viewers.rx.text).disposed(by: bag)
    }
}

/// A registry with the probe scene, per connection (`probe`) and shared (`sharedProbe`).
private func probeRegistry() -> SceneRegistry {
    let registry = SceneRegistry()
    for (name, sharing) in [("probe", SceneSharing.perConnection), ("sharedProbe", .shared)] {
        registry.register(name, sharing: sharing) { context in
            ProbeViewController(scheduler: context.scheduler, viewerCounts: context.viewerCount)
        }
    }
    return registry
}

/// A client of `probe`, with the push announcing its own arrival already taken.
private func probeClient() throws -> SceneTestClient {
    let client = try SceneTestClient(scene: "probe", registry: probeRegistry())
    _ = client.takePatches()
    return client
}

final class SceneTestClientTests: XCTestCase {
    func testTheClientStartsFromTheSnapshot() throws {
        let client = try SceneTestClient(scene: "probe", registry: probeRegistry())
        XCTAssertEqual(client.widgets.map(\.id), ["slider", "mirror", "field", "startButton", "failButton", "status", "viewers"])
        XCTAssertEqual(client.widget("slider")?.kind, "slider")
        XCTAssertEqual(client.widget("slider")?.props["value"], .number(0.5))
        XCTAssertEqual(client.widget("mirror")?.text, "0.5")
        XCTAssertEqual(client.sceneMessage.scene, "probe")
        XCTAssertFalse(client.sceneMessage.resumed)
        XCTAssertNil(client.widget("nope"))
        // The snapshot is taken once the client is attached: its own arrival is in it,
        // not pushed again afterwards.
        XCTAssertEqual(client.widget("viewers")?.text, "1")
        XCTAssertEqual(client.takePatches(), [])
        XCTAssertEqual(client.divergence(), [])
    }

    func testAnEventIsAnsweredWithItsChangesWithoutTheSendersOwnValue() throws {
        let client = try probeClient()
        let answer = client.send(event: "valueChanged", to: "slider", value: 0.25)
        XCTAssertEqual(answer, .patch(PatchMessage(ack: 1, changes: [PatchChange(target: "mirror", prop: "text", value: .string("0.25"))])))
        XCTAssertEqual(client.takePatches(), [PatchMessage(ack: 1, changes: answer.changes)])
        XCTAssertEqual(client.widget("slider")?.props["value"], .number(0.25), "the client shows what it sent")
        XCTAssertEqual(client.divergence(), [])
    }

    func testAClampedValueComesBack() throws {
        let client = try probeClient()
        let answer = client.send(event: "valueChanged", to: "slider", value: 7)
        XCTAssertEqual(answer.changeDescriptions, ["slider.value = 1.0", "mirror.text = \"1.0\""])
        XCTAssertEqual(client.widget("slider")?.props["value"], .number(1))
        XCTAssertEqual(client.divergence(), [])
    }

    func testAValueABindingRewroteComesBack() throws {
        let client = try probeClient()
        XCTAssertEqual(client.type("HeLLo", into: "field").changeDescriptions, ["field.text = \"hello\""])
        XCTAssertEqual(client.widget("field")?.text, "hello")
        XCTAssertEqual(client.type("same", into: "field").changeDescriptions, [], "unchanged: not echoed")
        XCTAssertEqual(client.takePatches().map(\.ack), [1, 2], "an empty answer is still a patch with its ack")
    }

    func testBadInputIsAnsweredWithItsCodeAndTheSceneGoesOn() throws {
        let client = try probeClient()
        XCTAssertEqual(client.send(event: "valueChanged", to: "slidr", value: 1).errorCode, "unknown-target")
        XCTAssertEqual(client.send(event: "touchUpInside", to: "mirror").errorCode, "unknown-event")
        XCTAssertEqual(client.send(event: "wobble", to: "slider").errorCode, "unknown-event")
        XCTAssertEqual(client.send(event: "editingChanged", to: "slider", value: 1).errorCode, "unknown-event")
        XCTAssertEqual(client.send(event: "valueChanged", to: "slider", value: "loud").errorCode, "bad-value")
        XCTAssertEqual(client.send(event: "touchUpInside", to: "startButton", value: 3).errorCode, "bad-value")
        let controller = try XCTUnwrap(client.controller(as: ProbeViewController.self))
        controller.startButton.isEnabled = false
        client.server.flush()
        XCTAssertEqual(client.tap("startButton").errorCode, "disabled")
        XCTAssertEqual(client.widget("slider")?.props["value"], .number(0.5), "a refused value is not shown")

        // Still alive.
        XCTAssertEqual(client.send(event: "valueChanged", to: "slider", value: 0.75).changeDescriptions, ["mirror.text = \"0.75\""])
        XCTAssertEqual(client.takePatches().map(\.ack), [nil, 8], "errors are not patches; the push is the disabling")
        XCTAssertEqual(client.divergence(), [])
    }

    func testAFailingBindingIsBindingFailed() throws {
        let client = try probeClient()
        let answer = client.tap("failButton")
        XCTAssertEqual(answer.errorCode, "binding-failed")
        XCTAssertEqual(client.send(event: "valueChanged", to: "slider", value: 0.5).errorCode, nil, "the session goes on")
    }

    func testVirtualTimeRunsTimedWorkAndPushesItsChanges() throws {
        let client = try probeClient()
        XCTAssertEqual(client.tap("startButton").changeDescriptions, ["status.text = \"waiting\""])
        client.advance(by: 1)
        XCTAssertEqual(client.widget("status")?.text, "waiting")
        client.advance(by: 1)
        XCTAssertEqual(client.widget("status")?.text, "done")
        XCTAssertEqual(client.takePatches(), [
            PatchMessage(ack: 1, changes: [PatchChange(target: "status", prop: "text", value: .string("waiting"))]),
            PatchMessage(ack: nil, changes: [PatchChange(target: "status", prop: "text", value: .string("done"))]),
        ])
        XCTAssertEqual(client.scheduler.clock, 2)
        XCTAssertEqual(client.takePatches(), [])
    }

    func testSharedSceneClientsSeeEachOthersChanges() throws {
        let server = SceneTestServer(registry: probeRegistry())
        let alice = try server.connect(scene: "sharedProbe")
        _ = alice.takePatches()
        let bob = try server.connect(scene: "sharedProbe")
        XCTAssertNotEqual(alice.session.id, bob.session.id, "one session each, one scene instance")
        XCTAssertEqual(bob.widget("viewers")?.text, "2")
        XCTAssertEqual(alice.takePatches(), [PatchMessage(ack: nil, changes: [PatchChange(target: "viewers", prop: "text", value: .string("2"))])])

        XCTAssertEqual(alice.send(event: "valueChanged", to: "slider", value: 0.25).changeDescriptions, ["mirror.text = \"0.25\""])
        XCTAssertEqual(bob.takePatches().last.map(\.testDescription), "patch push [\"slider.value = 0.25\", \"mirror.text = \\\"0.25\\\"\"]",
                       "the others get the sender's value too")
        XCTAssertEqual(alice.divergence(), [])
        XCTAssertEqual(bob.divergence(), [])

        bob.close()
        XCTAssertFalse(bob.isConnected)
        server.flush()
        XCTAssertEqual(alice.widget("viewers")?.text, "1")
        XCTAssertEqual(bob.send(event: "valueChanged", to: "slider", value: 1), .noAnswer)
    }

    func testMalformedTextIsAnsweredAndTheSessionGoesOn() throws {
        let client = try probeClient()
        XCTAssertEqual(client.send(text: "{").map(\.type), ["error"])
        guard case .error(let error)? = client.send(text: #"{"type":"shout","seq":4}"#).first else {
            return XCTFail("expected an error")
        }
        XCTAssertEqual(error.code, .unknownType)
        XCTAssertEqual(error.ack, 4)
        XCTAssertEqual(client.send(event: "valueChanged", to: "slider", value: 0.75).changeDescriptions, ["mirror.text = \"0.75\""])
    }

    func testEndingTheSessionReleasesTheControllerAndItsBindings() throws {
        let client = try probeClient()
        var ended = false
        weak let controller = client.controller(as: ProbeViewController.self)
        _ = controller?.rx.deallocated.subscribe(onCompleted: { ended = true })
        XCTAssertNotNil(controller)

        client.server.store.end(client.session, reason: "deleted")
        XCTAssertNil(controller)
        XCTAssertTrue(ended)
        XCTAssertEqual(client.messages.last, .bye(reason: "deleted"))
        XCTAssertTrue(client.session.isEnded)
        XCTAssertEqual(client.tap("startButton"), .noAnswer)
    }

    func testAClosedClientsSessionExpiresAfterTheGracePeriodInVirtualTime() throws {
        let client = try probeClient()
        weak let controller = client.controller(as: ProbeViewController.self)
        client.close()
        client.advance(by: 29)
        XCTAssertFalse(client.session.isEnded, "resumable for 30 s")
        XCTAssertNotNil(controller)
        client.advance(by: 1)
        XCTAssertTrue(client.session.isEnded)
        XCTAssertNil(controller)
    }
}
