@testable import Bindery
import EventLoop
import Foundation
import LoopTestSupport
import Redis
import RxWidgets
import XCTest

/// Read-your-writes for a shared scene's `scene` (``SharedSceneLink/whenCurrent(_:)``) and
/// the age of viewer-count reports read late (``SharedSceneLink/reportedAt(_:)``). Real
/// redis-server; skipped without one.
final class SharedSceneLinkCurrentTests: SharedSceneClusterTestCase {
    /// What a `scene` served when ``SharedSceneLink/whenCurrent(_:)`` ran its body.
    private final class Served: @unchecked Sendable {
        var slider: Double?
        var isServed = false
    }

    func testASceneIsServedOnlyOnceTheMirrorHoldsWhatTheOutboxHeldWhenItWasAskedFor() throws {
        let nodes = try makeNodes(2)
        XCTAssertTrue(eventually { (try? self.sync { nodes.filter(\.isOwner).count }) == 1 }, "one owner")
        let (writer, lagging) = (nodes[0], nodes[1])
        try sync { lagging.cluster.holdOutbox(true) }
        try sync { writer.viewers[0].slide(to: 0.3) }
        XCTAssertTrue(eventually { (try? self.sync { writer.viewers[0].acks.count == 1 }) == true }, "acknowledged")

        // The lagging process is asked for a scene (a client that had 0.3 acknowledged elsewhere).
        let served = Served()
        try sync {
            guard let link = lagging.viewers[0].session.host?.sharedLink else { throw TestError("no link") }
            link.whenCurrent { isCurrent in
                served.isServed = isCurrent
                served.slider = Self.slider(in: link.mirrorWidgets(for: nil))
            }
        }
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertFalse(try sync { served.isServed }, "served from a mirror behind the outbox")

        try sync { lagging.cluster.holdOutbox(false) }
        XCTAssertTrue(eventually(timeout: 1) { (try? self.sync { served.isServed }) == true }, "served once caught up")
        XCTAssertEqual(try sync { served.slider }, 0.3)

        // Caught up: the next one is served after a round trip.
        let again = Served()
        try sync {
            let link = lagging.viewers[0].session.host?.sharedLink
            link?.whenCurrent { again.isServed = $0 }
        }
        XCTAssertTrue(eventually(timeout: 0.5) { (try? self.sync { again.isServed }) == true }, "served at once")
    }

    func testAViewerCountReadLateByANewOwnerIsAsOldAsItsEntry() throws {
        // A process that reported 5 viewers 3 s ago and died: the backlog a new owner reads.
        let old = UInt64(Date().timeIntervalSince1970 * 1000) - 3000
        _ = try probe.call(["XADD", "bindery:scene:board:in", "\(old)-0", "k", "c", "o", "ghost", "n", "5"])
        let nodes = try makeNodes(1)
        // It never counts as live (read as fresh, it counted for another 1.25 s).
        var texts: Set<String> = []
        let end = Date().addingTimeInterval(2)
        while Date() < end {
            if let text = try sync({ nodes[0].viewers[0].viewerText }) { texts.insert(text) }
            Thread.sleep(forTimeInterval: 0.02)
        }
        XCTAssertTrue(texts.contains("1 online"), "\(texts)")
        XCTAssertFalse(texts.contains("6 online"), "\(texts)")
    }

    private static func slider(in widgets: [WidgetSnapshot]) -> Double? {
        guard let widget = widgets.first(where: { $0.id == "sharedSlider" }),
              case .number(let value)? = widget.properties["value"] else { return nil }
        return value
    }
}
