import BinderyDemo
import Bindery
import BinderyTesting
import RxWidgets
import XCTest

/// The `gallery` scene: a collection grid, page dots, swipes, pull to refresh and the
/// focus moved by the server.
final class GallerySceneTests: XCTestCase {
    private func items(_ client: SceneTestClient) -> [String] {
        client.widget("photoGrid")?.rows?.map(\.id) ?? []
    }

    private func attached(_ client: SceneTestClient, _ kind: String) throws -> [SceneTestWidget] {
        let found = client.widgets.filter { $0.kind == kind }
        XCTAssertFalse(found.isEmpty, "no \(kind)")
        return found
    }

    func testTheGridShowsTheFirstAlbumWithItsRefreshControlAndSwipes() throws {
        let client = try demoClient("gallery")
        XCTAssertEqual(items(client), ["Sunset", "Shells", "Waves", "Palm"])
        XCTAssertEqual(client.widget("albumLabel")?.text, "Beach · 4 photos")
        XCTAssertEqual(client.widget("photoGrid")?["itemWidth"], .number(120))
        guard case .rows(let sections)? = client.widget("photoGrid")?["sections"] else { return XCTFail("no sections") }
        XCTAssertEqual(sections.map { $0["header"] }, [.string("Beach")])
        XCTAssertEqual(try attached(client, "refreshControl").map { $0["view"] }, [.string("photoGrid")])
        XCTAssertEqual(try attached(client, "swipeGestureRecognizer").map { $0["direction"] },
                       [.strings(["left"]), .strings(["right"])])
        XCTAssertEqual(client.widget("albumPages")?["numberOfPages"], .number(3))
        XCTAssertEqual(client.widget("renameButton")?["isEnabled"], .bool(false))
    }

    func testSelectingAPhotoThenRenamingItThroughTheFocusedField() throws {
        let client = try demoClient("gallery")
        _ = client.send(text: #"{"type":"event","seq":1,"target":"photoGrid","event":"itemSelected","row":"Shells"}"#)
        XCTAssertEqual(client.widget("selectionLabel")?.text, "Selected: Shells")
        XCTAssertEqual(client.widget("renameButton")?["isEnabled"], .bool(true))
        _ = client.tap("renameButton")
        XCTAssertEqual(client.widget("captionField")?["focused"], .bool(true), "becomeFirstResponder")
        XCTAssertEqual(client.widget("captionField")?.text, "Shells")
        _ = client.type("Seashells", into: "captionField")
        _ = client.send(event: "editingDidEndOnExit", to: "captionField", value: "Seashells")
        XCTAssertEqual(items(client), ["Sunset", "Seashells", "Waves", "Palm"])
        XCTAssertEqual(client.widget("captionField")?["focused"], .bool(false), "endEditing(true)")
        XCTAssertEqual(client.widget("selectionLabel")?.text, "Selected: Seashells")
        XCTAssertEqual(client.widget("photoGrid")?["selectedItems"], .strings([]), "the renamed photo is a new item")
        XCTAssertEqual(client.divergence(), [])
    }

    func testDotsAndSwipesTurnTheAlbum() throws {
        let client = try demoClient("gallery")
        _ = client.send(event: "valueChanged", to: "albumPages", value: 2)
        XCTAssertEqual(items(client), ["Skyline", "Tram"])
        let swipes = try attached(client, "swipeGestureRecognizer")
        _ = client.send(text: #"{"type":"event","seq":9,"target":"\#(swipes[0].id)","event":"recognized"}"#)  // left: next
        XCTAssertEqual(items(client), ["Skyline", "Tram"], "no album after the last")
        _ = client.send(text: #"{"type":"event","seq":10,"target":"\#(swipes[1].id)","event":"recognized"}"#)  // right
        XCTAssertEqual(items(client), ["Summit", "Camp", "Lake"])
        XCTAssertEqual(client.widget("albumPages")?["currentPage"], .number(1))
        XCTAssertEqual(client.divergence(), [])
    }

    func testAMovedPhotoStaysMovedInTheModel() throws {
        let client = try demoClient("gallery")
        let answer = client.send(text: #"{"type":"event","seq":1,"target":"photoGrid","event":"itemMoved","row":"Sunset","toSection":"Beach","toIndex":2}"#)
        guard case .patch(let patch)? = answer.first else { return XCTFail("\(answer)") }
        XCTAssertEqual(patch.changes.count, 1, "one keyed move, and the model's update changes nothing more")
        XCTAssertEqual(items(client), ["Shells", "Waves", "Sunset", "Palm"])
        let controller = try XCTUnwrap(client.controller(as: GalleryViewController.self))
        XCTAssertEqual(controller.albums.value[0].items.map(\.title), ["Shells", "Waves", "Sunset", "Palm"])
        XCTAssertEqual(client.divergence(), [])
    }

    func testRefreshAddsTheNextPhotoAsOneKeyedInsertThenEnds() throws {
        let client = try demoClient("gallery")
        let refresh = try XCTUnwrap(try attached(client, "refreshControl").first)
        _ = client.takePatches()
        _ = client.send(text: #"{"type":"event","seq":1,"target":"\#(refresh.id)","event":"valueChanged"}"#)
        XCTAssertEqual(client.widget(refresh.id)?["isRefreshing"], .bool(true))
        client.advance(by: 1)
        XCTAssertEqual(items(client), ["Boat", "Sunset", "Shells", "Waves", "Palm"])
        XCTAssertEqual(client.widget(refresh.id)?["isRefreshing"], .bool(false))
        let changes = client.takePatches().flatMap(\.changes).filter { $0.target == "photoGrid" && $0.prop == "items" }
        guard changes.count == 1, case .ops(let ops) = changes[0].update, ops.count == 1,
              case .insert(index: 0, let rows) = ops[0] else {
            return XCTFail("expected one keyed insert, got \(changes)")
        }
        XCTAssertEqual(rows.map(\.id), ["Boat"])
        XCTAssertEqual(client.divergence(), [])
    }
}
