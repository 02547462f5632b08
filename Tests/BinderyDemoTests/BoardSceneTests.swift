import BinderyDemo
import Bindery
import BinderyTesting
import XCTest

final class BoardSceneTests: XCTestCase {
    func testTheBoardIsSharedBetweenClients() throws {
        XCTAssertEqual(BinderyDemo.DemoScenes.named("board")?.isShared, true)
        let server = SceneTestServer(registry: demoRegistry())
        let alice = try server.connect(scene: "board")
        XCTAssertEqual(alice.widgets.map(\.id), ["sharedSlider", "viewers"])
        XCTAssertEqual(alice.widget("viewers")?.text, "1 online")
        XCTAssertEqual(alice.widget("sharedSlider")?["value"], .number(0.5))

        let bob = try server.connect(scene: "board")
        XCTAssertEqual(bob.widget("viewers")?.text, "2 online")
        XCTAssertEqual(alice.widget("viewers")?.text, "2 online")

        XCTAssertTrue(alice.session.controller === bob.session.controller, "one instance for all")

        // Alice moves the slider: her answer is empty (she shows it), Bob gets it pushed.
        XCTAssertEqual(alice.send(event: "valueChanged", to: "sharedSlider", value: 0.8), .patch(PatchMessage(ack: 1, changes: [])))
        XCTAssertEqual(bob.takePatches().last, PatchMessage(ack: nil, changes: [
            PatchChange(target: "sharedSlider", prop: "value", value: .number(0.8)),
        ]))
        XCTAssertEqual(bob.widget("sharedSlider")?["value"], .number(0.8))

        // And back the other way.
        bob.send(event: "valueChanged", to: "sharedSlider", value: 0.1)
        XCTAssertEqual(alice.widget("sharedSlider")?["value"], .number(0.1))

        // A newcomer sees the current value.
        let carol = try server.connect(scene: "board")
        XCTAssertEqual(carol.widget("sharedSlider")?["value"], .number(0.1))
        XCTAssertEqual(carol.widget("viewers")?.text, "3 online")

        bob.close()
        server.flush()
        XCTAssertEqual(alice.widget("viewers")?.text, "2 online")
        XCTAssertEqual(carol.widget("viewers")?.text, "2 online")
        for client in [alice, carol] {
            XCTAssertEqual(client.divergence(), [])
        }
    }

    func testTheBoardClampsForEveryone() throws {
        let server = SceneTestServer(registry: demoRegistry())
        let alice = try server.connect(scene: "board")
        let bob = try server.connect(scene: "board")
        XCTAssertEqual(alice.send(event: "valueChanged", to: "sharedSlider", value: -3).changeDescriptions,
                       ["sharedSlider.value = 0.0"])
        XCTAssertEqual(bob.widget("sharedSlider")?["value"], .number(0))
    }
}
