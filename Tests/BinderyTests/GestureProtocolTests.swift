import Bindery
import BinderyTesting
import Foundation
import RxCore
import RxTesting
import RxWidgets
import XCTest

private final class TapViewController: ViewController {
    let bag = DisposeBag()
    let card = View()
    let count = Label()

    override func viewDidLoad() {
        super.viewDidLoad()
        let tap = TapGestureRecognizer()
        card.addGestureRecognizer(tap)
        tap.rx.event.scan(0) { total, _ in total + 1 }.map { "\($0) taps" }.bind(to: count.rx.text).disposed(by: bag)
    }
}

final class GestureProtocolTests: XCTestCase {
    func testARecognizerIsAWidgetNamingItsViewAndRecognizedFiresRxEvent() throws {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        let registry = SceneRegistry()
        registry.register("tap", title: "Tap") { TapViewController() }
        let store = SessionStore(registry: registry,
                                 configuration: SessionStore.Configuration(gracePeriod: .seconds(30), maxSessions: 5,
                                                                           maxSessionsPerAddress: 3, strictBindingErrors: false),
                                 scheduler: scheduler, flushScheduler: scheduler)
        let session = try store.createSession(scene: "tap")
        let scene = session.sceneMessage(resumed: false)
        XCTAssertEqual(scene.widgets.map(\.id), ["card", "count", "tapGestureRecognizer-1"])
        XCTAssertEqual(scene.widgets[2].properties["view"], .string("card"))
        let answer = MessageEncoder.encode(session.handle(text: #"{"type":"event","seq":1,"target":"tapGestureRecognizer-1","event":"recognized"}"#)!)
        XCTAssertEqual(answer, #"{"type":"patch","ack":1,"changes":[{"target":"count","prop":"text","value":"1 taps"}]}"#)
    }
}
