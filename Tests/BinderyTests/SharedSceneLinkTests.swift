@testable import Bindery
import EventLoop
import BinderyTesting
import Foundation
import LoopTestSupport
import Redis
import RxWidgets
import XCTest

/// A shared scene's HTTP events on a cluster (no client: `POST /api/sessions/<id>/events`)
/// are answered with the owner's answer once it comes back through the outbox, as a
/// store-less server answers at once; `store-unavailable` when Redis refuses the event or
/// no answer comes in time. Real redis-server; skipped without one.
final class SharedSceneLinkTests: SharedSceneClusterTestCase {
    /// Sends `text` as an HTTP request would (no client) to `viewer`'s session; the
    /// answers land in the returned recorder.
    private func post(_ text: String, to viewer: SharedSceneViewer) throws -> Recorder<String> {
        let answers = Recorder<String>()
        try runner.sync {
            let session = viewer.session
            let link = try XCTUnwrap(session.host?.sharedLink, "the board is linked to the cluster")
            link.answering({ answers.append($0.map { MessageEncoder.encode($0) } ?? "null") }) { reply in
                session.handle(text: text, from: nil, reply: reply)
            }
        }
        return answers
    }

    private static let slide = #"{"type":"event","seq":7,"target":"sharedSlider","event":"valueChanged","value":0.25}"#

    func testAnHTTPEventIsAnsweredAsAStorelessServerAnswersIt() throws {
        let nodes = try makeNodes(2)
        XCTAssertTrue(eventually { ((try? self.runner.sync { nodes.filter(\.isOwner).count }) ?? 0) == 1 })
        let edge = try XCTUnwrap(try runner.sync { nodes.first { !$0.isOwner } })
        let answers = try post(Self.slide, to: edge.viewers[0])
        XCTAssertTrue(answers.wait(for: 1, timeout: 5), "answered")

        // The same event on one process without a store.
        let expected = try runner.sync {
            let store = SessionStore(registry: makeTestRegistry())
            let session = try store.createSession(scene: "board")
            defer { store.endAll() }
            return session.handle(text: Self.slide, from: nil).map { MessageEncoder.encode($0) } ?? "null"
        }
        XCTAssertEqual(answers.values, [expected])
        XCTAssertTrue(expected.hasPrefix(#"{"type":"patch","ack":7"#), expected)
        // Everyone, this session's own viewer included (the request is not a viewer), gets the patch.
        XCTAssertTrue(eventually { (try? self.runner.sync { nodes.allSatisfy { $0.viewers[0].slider == 0.25 } }) == true })
    }

    func testAnHTTPEventRefusedBeforeForwardingIsAnsweredAtOnce() throws {
        let nodes = try makeNodes(1)
        let answers = try post(#"{"type":"event","seq":3,"target":"sharedSlider"}"#, to: nodes[0].viewers[0])
        XCTAssertEqual(answers.values.count, 1, "answered at once")
        XCTAssertTrue(answers.values.first?.contains(#""code":"bad-message""#) == true, "\(answers.values)")
    }

    func testNoAnswerInTimeIsStoreUnavailableNotAHang() throws {
        // An owner that holds the lease and never reads its inbox.
        _ = try probe.call(["SET", "bindery:scene:board:owner", "ghost", "PX", "60000"])
        let nodes = try makeNodes(1, configuration: SharedSceneCluster.Configuration(answerTimeout: .milliseconds(300)))
        let started = Date()
        let answers = try post(Self.slide, to: nodes[0].viewers[0])
        XCTAssertTrue(answers.wait(for: 1, timeout: 5), "answered")
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.25, "waited for the owner first")
        let answer = try XCTUnwrap(answers.values.first)
        XCTAssertTrue(answer.contains(#""code":"store-unavailable""#) && answer.contains(#""ack":7"#), answer)
        XCTAssertTrue(answer.contains("did not answer"), answer)
    }

    func testRedisAwayIsStoreUnavailable() throws {
        let nodes = try makeNodes(1)
        XCTAssertTrue(eventually { (try? self.runner.sync { nodes[0].isOwner }) == true })
        probe.close()
        redis = nil  // stops redis-server
        let answers = try post(Self.slide, to: nodes[0].viewers[0])
        XCTAssertTrue(answers.wait(for: 1, timeout: 8), "answered, not left hanging")
        let answer = try XCTUnwrap(answers.values.first)
        XCTAssertTrue(answer.contains(#""code":"store-unavailable""#) && answer.contains(#""ack":7"#), answer)
    }
}
