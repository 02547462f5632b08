import Bindery
import Foundation
import XCTest

/// Scene parameters and the table / alert / navigation events over the real server:
/// `curl` for the HTTP API and Server-Sent Events, `websocat` for the WebSocket's
/// `bad-parameter` refusal. The scenes are `makeParameterRegistry()`'s.
final class SceneParametersHTTPTests: XCTestCase {
    private static let venv = ProcessInfo.processInfo.environment["BINDERY_TEST_VENV"] ?? "/tmp/bindery-test-venv"
    private var server: BinderyTestServer!

    override func setUpWithError() throws {
        server = try BinderyTestServer(registry: makeParameterRegistry())
    }

    override func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    private func curl(_ arguments: [String]) throws -> (status: Int, body: String) {
        let result = try runProcess("/usr/bin/curl", ["-s", "--max-time", "5", "--noproxy", "*", "-w", "\n%{http_code}"] + arguments,
                                    timeout: 10)
        let lines = result.stdout.components(separatedBy: "\n")
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    private func screenTitles(_ scene: JSONValue) -> [String] {
        guard case .array(let widgets)? = scene["widgets"],
              let navigation = widgets.first(where: { $0["id"] == .string("navigation") }),
              case .array(let screens)? = navigation["props"]?["screens"] else { return [] }
        return screens.compactMap { $0["title"]?.stringValue }
    }

    func testSessionsOpenWithParametersFromTheBodyOrTheQueryAndBadOnesAre400() throws {
        let base = server.baseURL
        let byBody = try curl(["-XPOST", base + "/api/sessions", "-d", #"{"scene":"repo","parameters":{"id":"2"}}"#])
        XCTAssertEqual(byBody.status, 201, byBody.body)
        XCTAssertEqual(screenTitles(try JSONValue.parse(byBody.body)), ["Repos", "repo-2"])

        let byQuery = try curl(["-XPOST", base + "/api/sessions?id=3&session=ignored", "-d", #"{"scene":"repo"}"#])
        XCTAssertEqual(byQuery.status, 201, byQuery.body)
        XCTAssertEqual(screenTitles(try JSONValue.parse(byQuery.body)), ["Repos", "repo-3"])

        let number = try curl(["-XPOST", base + "/api/sessions", "-d", #"{"scene":"repo","parameters":{"id":1}}"#])
        XCTAssertEqual(screenTitles(try JSONValue.parse(number.body)), ["Repos", "repo-1"], "a JSON number is its text")

        let onScreen = try curl(["-XPOST", base + "/api/sessions", "-d", #"{"scene":"repo","screen":"/repo-3"}"#])
        XCTAssertEqual(screenTitles(try JSONValue.parse(onScreen.body)), ["Repos", "repo-3"], "a screen path")

        let bad = try curl(["-XPOST", base + "/api/sessions", "-d", #"{"scene":"repo","parameters":{"id":"two"}}"#])
        XCTAssertEqual(bad.status, 400)
        XCTAssertEqual(bad.body, #"{"error":"bad-parameter","message":"parameter 'id': expected an integer, got 'two'"}"#)
        let unknown = try curl(["-XPOST", base + "/api/sessions?id=7", "-d", #"{"scene":"repo"}"#])
        XCTAssertEqual(unknown.status, 400)
        XCTAssertEqual(unknown.body, #"{"error":"bad-parameter","message":"parameter 'id': there is no repository 7"}"#)
        let shape = try curl(["-XPOST", base + "/api/sessions", "-d", #"{"scene":"repo","parameters":["id"]}"#])
        XCTAssertEqual(shape.status, 400)
        XCTAssertTrue(shape.body.contains(#""error":"bad-message""#), shape.body)
        XCTAssertEqual(try JSONValue.parse(try curl([base + "/healthz"]).body)["sessions"], .number(4), "no session for a refusal")
    }

    func testRowAlertAndBackEventsOverHTTPAndTheirPatchesOnSSE() throws {
        let base = server.baseURL
        let created = try curl(["-XPOST", base + "/api/sessions", "-d", #"{"scene":"repo"}"#])
        let id = try XCTUnwrap(try JSONValue.parse(created.body)["session"]?.stringValue)
        let events = base + "/api/sessions/\(id)/events"
        let stream = try startProcess("/usr/bin/curl", ["-sN", "--max-time", "3", "--noproxy", "*", events])
        Thread.sleep(forTimeInterval: 0.3)

        // A row tap (`row`): the detail screen is pushed, its widgets in `added`.
        let push = try curl(["-XPOST", events, "-d", #"{"type":"event","seq":1,"target":"table","event":"itemSelected","row":"0.1"}"#])
        XCTAssertEqual(push.status, 200)
        let pushed = try JSONValue.parse(push.body)
        XCTAssertEqual(pushed["added"]?[0]?["id"], .string("screen-2.starButton"))
        XCTAssertTrue(push.body.contains(#""restorationIdentifier":"repo-2""#), push.body)
        XCTAssertEqual(try curl(["-XPOST", events, "-d", #"{"type":"event","seq":2,"target":"table","event":"itemSelected","row":"9.9"}"#]).body
            .contains(#""code":"unknown-row""#), true)

        // An alert (`action`): presented by a tap, answered by its action's index.
        let tap = try curl(["-XPOST", events, "-d", #"{"type":"event","seq":3,"target":"screen-2.starButton","event":"touchUpInside"}"#])
        let alertID = try XCTUnwrap(try JSONValue.parse(tap.body)["added"]?[0]?["id"]?.stringValue, tap.body)
        XCTAssertTrue(tap.body.contains(#""title":"Star repo-2?""#), tap.body)
        let wrong = try curl(["-XPOST", events, "-d", #"{"type":"event","seq":4,"target":"\#(alertID)","event":"actionTriggered","action":5}"#])
        XCTAssertTrue(wrong.body.contains(#""code":"unknown-action""#), wrong.body)
        let star = try curl(["-XPOST", events, "-d", #"{"type":"event","seq":5,"target":"\#(alertID)","event":"actionTriggered","action":1}"#])
        XCTAssertEqual(try JSONValue.parse(star.body)["removed"]?[0], .string(alertID))
        XCTAssertTrue(star.body.contains(#"{"target":"screen-2.stars","prop":"text","value":"starred"}"#), star.body)

        // Back (`row` names the screen left): popped, its widgets removed.
        let back = try curl(["-XPOST", events, "-d", #"{"type":"event","seq":6,"target":"navigation","event":"back","row":"screen-2"}"#])
        XCTAssertEqual(try JSONValue.parse(back.body)["removed"], .array([.string("screen-2.stars"), .string("screen-2.starButton")]), back.body)

        let sse = stream.finish()
        let patches = sse.components(separatedBy: "\n\n").filter { $0.hasPrefix("event: patch\n") }
        XCTAssertTrue(patches.contains { $0.contains(#""added":[{"id":"screen-2.starButton""#) }, "the push on SSE:\n\(sse)")
        XCTAssertTrue(patches.contains { $0.contains(#""added":[{"id":"\#(alertID)","kind":"alertController""#) },
                      "the presentation on SSE:\n\(sse)")
        XCTAssertTrue(patches.contains { $0.contains(#""removed":["\#(alertID)""#) }, "the dismissal on SSE:\n\(sse)")
        XCTAssertTrue(patches.contains { $0.contains(#""removed":["screen-2.stars","screen-2.starButton"]"#) }, "the pop on SSE:\n\(sse)")
    }

    func testAWebSocketWithBadParametersGetsTheErrorAndCloses4400() throws {
        let websocat = Self.venv + "/bin/websocat"
        guard FileManager.default.isExecutableFile(atPath: websocat) else { throw XCTSkip("no websocat: run `make test-deps`") }
        let ws = server.baseURL.replacingOccurrences(of: "http://", with: "ws://")
        let refused = try runProcess(websocat, ["-n1", "-t", ws + "/ws/repo?id=7"], timeout: 10)
        XCTAssertEqual(refused.stdout.trimmingCharacters(in: .whitespacesAndNewlines),
                       #"{"type":"error","code":"bad-parameter","message":"parameter 'id': there is no repository 7"}"#)
        let opened = try runProcess(websocat, ["-n1", "-t", "--max-messages-rev", "1", ws + "/ws/repo?id=2&screen=/repo-2"], timeout: 10)
        let scene = try JSONValue.parse(opened.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        XCTAssertEqual(screenTitles(scene), ["Repos", "repo-2"], opened.stdout)
    }
}
