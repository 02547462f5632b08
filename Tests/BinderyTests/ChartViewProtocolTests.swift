import Bindery
import BinderyTesting
import Foundation
import RxCore
import RxTesting
import RxWidgets
import XCTest

/// A live chart (40 CPU samples in a 40-point window, streaming one a second on the
/// scene's scheduler), a bar chart re-bound whole on each vote, and buttons for both.
private final class DashboardViewController: ViewController, Scene {
    let bag = DisposeBag()
    let load = ChartView()
    let votes = ChartView()
    let sample = Button()
    let vote = Button()
    let counts = BehaviorRelay(value: [1, 2])
    let scheduler: SchedulerType
    var next = 40

    init(scheduler: SchedulerType) {
        self.scheduler = scheduler
        super.init()
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        load.title = "CPU"
        load.yRange = 0...1
        load.yTickFormat = .percent
        load.setSeries([ChartSeries(id: "cpu", title: "CPU",
                                    points: (0..<40).map { ChartPoint(x: Double($0), y: 0.25) }, maxPoints: 40)])
        Observable<Int>.interval(.seconds(1), scheduler: scheduler)
            .map { [unowned self] _ in self.takeNext() }
            .bind(to: load.rx.append(to: "cpu"))
            .disposed(by: bag)
        sample.rx.tap.map { [unowned self] in self.takeNext() }.bind(to: load.rx.append(to: "cpu")).disposed(by: bag)
        counts
            .map { [ChartSeries(id: "n", kind: .bar, points: zip(["Red", "Blue"], $0).map { ChartPoint(x: $0, y: Double($1)) })] }
            .bind(to: votes.rx.series)
            .disposed(by: bag)
        vote.rx.tap.subscribe(onNext: { [counts] in counts.accept([counts.value[0], counts.value[1] + 1]) }).disposed(by: bag)
    }

    private func takeNext() -> ChartPoint {
        defer { next += 1 }
        return ChartPoint(x: Double(next), y: 0.5)
    }

    var sceneWidgets: [(id: String, widget: View)] {
        [("load", load), ("votes", votes), ("sample", sample), ("vote", vote)]
    }
}

private func chartRegistry() -> SceneRegistry {
    let registry = SceneRegistry()
    registry.register("dashboard", title: "Dashboard") { context in DashboardViewController(scheduler: context.scheduler) }
    return registry
}

/// Charts over the real message path: the scene's chart value, and the small keyed
/// patches a streaming chart sends (answers, pushes and SSE alike).
final class ChartViewProtocolTests: XCTestCase {
    private var scheduler: TestScheduler!
    private var store: SessionStore!

    override func setUp() {
        super.setUp()
        scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        store = SessionStore(registry: chartRegistry(),
                             configuration: SessionStore.Configuration(gracePeriod: .seconds(30), maxSessions: 5,
                                                                       maxSessionsPerAddress: 3, strictBindingErrors: false),
                             scheduler: scheduler, flushScheduler: scheduler)
    }

    private func send(_ session: Session, _ json: String) -> String {
        MessageEncoder.encode(session.handle(text: json)!)
    }

    func testTheSceneCarriesSeriesAndKeyedPoints() throws {
        let session = try store.createSession(scene: "dashboard")
        let json = MessageEncoder.encode(.scene(session.sceneMessage(resumed: false)))
        XCTAssertTrue(json.contains(#"{"id":"votes","kind":"chartView","props":{"alpha":1,"backgroundColor":null,"isHidden":false,"points":[{"id":"n/Red","series":"n","x":"Red","y":1},{"id":"n/Blue","series":"n","x":"Blue","y":2}],"series":[{"id":"n","kind":"bar","title":"n"}],"showsLegend":true,"title":null,"xAxisTitle":null,"xTickFormat":"auto","yAxisTitle":null,"yMax":null,"yMin":null,"yTickFormat":"auto"}}"#), json)
        XCTAssertTrue(json.contains(#""yMax":1,"yMin":0,"yTickFormat":"percent""#), json)
        XCTAssertTrue(json.contains(#"{"id":"cpu/39","series":"cpu","x":39,"y":0.25}]"#), json)
    }

    func testOneAppendedPointPastTheWindowIsOneSmallPatch() throws {
        let session = try store.createSession(scene: "dashboard")
        let answer = send(session, #"{"type":"event","seq":1,"target":"sample","event":"touchUpInside"}"#)
        XCTAssertEqual(answer, #"{"type":"patch","ack":1,"changes":[{"target":"load","prop":"points","ops":[{"op":"remove","index":0,"count":1},{"op":"insert","index":39,"rows":[{"id":"cpu/40","series":"cpu","x":40,"y":0.5}]}]}]}"#)
        XCTAssertLessThan(answer.utf8.count, 200, "one point: one remove and one insert of one row")
        let scene = MessageEncoder.encodeUTF8(.scene(session.sceneMessage(resumed: true)))
        XCTAssertGreaterThan(scene.count, 10 * answer.utf8.count, "the patch is much smaller than the chart")
    }

    func testAStreamedPointIsPushedAsOneSmallPatch() throws {
        let session = try store.createSession(scene: "dashboard")
        var pushed: [String] = []
        let client = session.connect { pushed.append(MessageEncoder.encode($0)) }
        scheduler.advanceTo(1)
        session.flush()
        XCTAssertEqual(pushed, [#"{"type":"patch","changes":[{"target":"load","prop":"points","ops":[{"op":"remove","index":0,"count":1},{"op":"insert","index":39,"rows":[{"id":"cpu/40","series":"cpu","x":40,"y":0.5}]}]}]}"#])
        XCTAssertLessThan(pushed[0].utf8.count, 200)
        // Each later second: its own flush, its own small patch.
        scheduler.advanceTo(4)
        session.flush()
        XCTAssertEqual(pushed.count, 4)
        for (offset, patch) in pushed.enumerated() {
            XCTAssertTrue(patch.contains(#""ops":[{"op":"remove","index":0,"count":1},{"op":"insert","index":39,"rows":[{"id":"cpu/\#(40 + offset)""#), patch)
            XCTAssertLessThan(patch.utf8.count, 200)
        }
        _ = client
    }

    func testRebindingBarsSendsOneUpdate() throws {
        let session = try store.createSession(scene: "dashboard")
        XCTAssertEqual(send(session, #"{"type":"event","seq":1,"target":"vote","event":"touchUpInside"}"#),
                       #"{"type":"patch","ack":1,"changes":[{"target":"votes","prop":"points","ops":[{"op":"update","index":1,"row":{"id":"n/Blue","series":"n","x":"Blue","y":3}}]}]}"#)
    }

    func testAChartSendsNoEvents() throws {
        let session = try store.createSession(scene: "dashboard")
        guard case .error(let error)? = session.handle(text: #"{"type":"event","seq":1,"target":"load","event":"touchUpInside"}"#) else {
            return XCTFail("expected an error")
        }
        XCTAssertEqual(error.code.rawValue, "unknown-event")
    }

    func testSSECarriesTheSameKeyedPatches() throws {
        let server = try BinderyTestServer(registry: chartRegistry())
        defer { server.stop() }
        let base = server.baseURL
        let created = try runProcess("/usr/bin/curl", ["-s", "--noproxy", "*", "-XPOST", base + "/api/sessions",
                                                       "-d", #"{"scene":"dashboard"}"#], timeout: 10)
        let id = try XCTUnwrap(try JSONValue.parse(created.stdout)["session"]?.stringValue)
        let stream = try startProcess("/usr/bin/curl", ["-sN", "--max-time", "3", "--noproxy", "*", base + "/api/sessions/\(id)/events"])
        Thread.sleep(forTimeInterval: 0.4)
        let answer = try runProcess("/usr/bin/curl", ["-s", "--noproxy", "*", "-XPOST", base + "/api/sessions/\(id)/events", "-d",
                                                      #"{"type":"event","seq":1,"target":"vote","event":"touchUpInside"}"#], timeout: 10)
        XCTAssertEqual(answer.stdout, #"{"type":"patch","ack":1,"changes":[{"target":"votes","prop":"points","ops":[{"op":"update","index":1,"row":{"id":"n/Blue","series":"n","x":"Blue","y":3}}]}]}"#)
        let events = stream.finish().components(separatedBy: "\n\n").filter { !$0.isEmpty }
        XCTAssertTrue(events.first?.hasPrefix("event: scene\ndata: {\"type\":\"scene\"") ?? false, "\(events)")
        // The live chart's timer (the main loop's, one a second) streams pushed patches.
        let pushes = events.filter { $0.hasPrefix("event: patch\ndata: ") && $0.contains(#""target":"load","prop":"points","ops":[{"op":"remove","index":0,"count":1},{"op":"insert","index":39"#) }
        XCTAssertGreaterThanOrEqual(pushes.count, 1, "\(events)")
        for push in pushes {
            XCTAssertLessThan(push.utf8.count, 220, push)
            XCTAssertFalse(push.contains("\"ack\""), "a timer's patch answers nothing")
        }
        XCTAssertTrue(events.contains { $0.hasPrefix("event: patch\n") && $0.contains(#""id":"n/Blue","series":"n","x":"Blue","y":3"#) },
                      "the SSE stream carries the vote's patch too: \(events)")
    }
}
