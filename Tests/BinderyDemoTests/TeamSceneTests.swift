import BinderyDemo
import Bindery
import BinderyTesting
import RxWidgets
import XCTest

/// The `team` scene: a navigation stack over a sectioned table; taps push, Back pops,
/// Edit deletes and reorders.
final class TeamSceneTests: XCTestCase {
    private func event(_ client: SceneTestClient, _ json: String) -> [ServerMessage] {
        client.send(text: json)
    }

    private func rowIDs(_ client: SceneTestClient) -> [String] {
        client.widget("tableView")?.rows?.map(\.id) ?? []
    }

    private func screens(_ client: SceneTestClient) -> [ListRow] {
        if case .rows(let rows)? = client.widget("navigation")?["screens"] { return rows }
        return []
    }

    func testTheDirectoryIsATableInSectionsUnderANavigationBar() throws {
        let client = try demoClient("team")
        XCTAssertEqual(client.widgets.map(\.id), ["navigation", "tableView", "screen-1.rightBarButtonItem"])
        XCTAssertEqual(screens(client).map { $0["title"] }, [.string("Team")])
        XCTAssertEqual(rowIDs(client), ["Ada Park", "Bo Lindqvist", "Chen Wei", "Dara Okafor", "Eli Navarro", "Fatima Haddad"])
        let chen = try XCTUnwrap(client.widget("tableView")?.rows?[2])
        XCTAssertEqual(chen["section"], .string("Engineering"))
        XCTAssertEqual(chen["detailText"], .string("Server engineer"))
        XCTAssertEqual(chen["accessoryType"], .string("disclosureIndicator"))
        guard case .rows(let sections)? = client.widget("tableView")?["sections"] else { return XCTFail("no sections") }
        XCTAssertEqual(sections.map { $0["header"] }, [.string("Design"), .string("Engineering"), .string("Support")])
        XCTAssertEqual(sections.map { $0["footer"] }, [.string("2 people"), .string("3 people"), .string("1 person")])
    }

    func testSelectingAMemberPushesTheirScreenAndBackPopsIt() throws {
        let client = try demoClient("team")
        _ = event(client, #"{"type":"event","seq":1,"target":"tableView","event":"itemSelected","row":"Chen Wei"}"#)
        XCTAssertEqual(screens(client).map(\.id), ["screen-1", "screen-2"])
        XCTAssertEqual(screens(client).last?["title"], .string("Chen Wei"))
        XCTAssertEqual(screens(client).last?["backTitle"], .string("Team"))
        XCTAssertEqual(client.widget("screen-2.roleLabel")?.text, "Role: Server engineer")
        XCTAssertEqual(client.widget("screen-2.emailLabel")?.text, "Email: chen.wei@example.com")
        XCTAssertEqual(client.widget("tableView")?["selectedRows"], .strings([]), "deselected as the screen opens")
        XCTAssertEqual(client.widget("screen-2.favouriteLabel")?.text, "☆ Tap to mark as a favourite")
        let tap = try XCTUnwrap(client.widgets.first { $0.kind == "tapGestureRecognizer" })
        XCTAssertEqual(tap["view"], .string("screen-2.favouriteLabel"))
        _ = event(client, #"{"type":"event","seq":2,"target":"\#(tap.id)","event":"recognized"}"#)
        XCTAssertEqual(client.widget("screen-2.favouriteLabel")?.text, "★ A favourite (tap to unmark)")

        _ = event(client, #"{"type":"event","seq":3,"target":"navigation","event":"back","row":"screen-2"}"#)
        XCTAssertEqual(screens(client).map(\.id), ["screen-1"])
        XCTAssertNil(client.widget("screen-2.roleLabel"), "the popped screen's widgets are gone")
        XCTAssertNil(client.widgets.first { $0.kind == "tapGestureRecognizer" }, "its recognizer too")
        XCTAssertEqual(client.divergence(), [])
    }

    func testEditDeletesAndReordersThroughTheModel() throws {
        let client = try demoClient("team")
        client.tap("screen-1.rightBarButtonItem")
        XCTAssertEqual(client.widget("tableView")?["isEditing"], .bool(true))
        XCTAssertEqual(client.widget("screen-1.rightBarButtonItem")?["title"], .string("Done"))

        _ = event(client, #"{"type":"event","seq":2,"target":"tableView","event":"itemDeleted","row":"Bo Lindqvist"}"#)
        XCTAssertEqual(rowIDs(client), ["Ada Park", "Chen Wei", "Dara Okafor", "Eli Navarro", "Fatima Haddad"])
        // Chen Wei to the end of Design (index 1, after Ada): a keyed move plus its section.
        _ = event(client, #"{"type":"event","seq":3,"target":"tableView","event":"itemMoved","row":"Chen Wei","toSection":"Design","toIndex":1}"#)
        XCTAssertEqual(rowIDs(client), ["Ada Park", "Chen Wei", "Dara Okafor", "Eli Navarro", "Fatima Haddad"])
        XCTAssertEqual(client.widget("tableView")?.rows?[1]["section"], .string("Design"))
        let controller = try XCTUnwrap(client.controller(as: NavigationController.self)?.viewControllers.first as? TeamListViewController)
        XCTAssertEqual(controller.sections.value.map { $0.items.map(\.name) },
                       [["Ada Park", "Chen Wei"], ["Dara Okafor", "Eli Navarro"], ["Fatima Haddad"]],
                       "the app's model follows the table")
        client.tap("screen-1.rightBarButtonItem")
        XCTAssertEqual(client.widget("tableView")?["isEditing"], .bool(false))
        XCTAssertEqual(client.divergence(), [])
    }

    // MARK: - Links (issue 12: scenes open with parameters, the URL names the screen)

    func testAMemberParameterOpensTheirScreenAndBackGoesToTheDirectory() throws {
        let client = try SceneTestClient(scene: "team", registry: demoRegistry(), parameters: ["member": "chen-wei"])
        XCTAssertEqual(screens(client).map { $0["title"] }, [.string("Team"), .string("Chen Wei")])
        XCTAssertEqual(screens(client).map { $0["restorationIdentifier"] }, [nil, .string("chen-wei")])
        XCTAssertEqual(client.widget("screen-2.roleLabel")?["text"], .string("Role: Server engineer"))
        _ = event(client, #"{"type":"event","seq":1,"target":"navigation","event":"back","row":"screen-2"}"#)
        XCTAssertEqual(screens(client).map { $0["title"] }, [.string("Team")])
    }

    func testAnUnknownMemberIsABadParameter() {
        XCTAssertThrowsError(try SceneTestClient(scene: "team", registry: demoRegistry(), parameters: ["member": "nobody"])) { error in
            XCTAssertEqual(error as? SessionError, .badParameter("parameter 'member': nobody in the team goes by 'nobody'"))
        }
    }

    func testARowTapNamesTheScreenAndTheScreenPathRebuildsIt() throws {
        let client = try demoClient("team")
        _ = event(client, #"{"type":"event","seq":1,"target":"tableView","event":"itemSelected","row":"Dara Okafor"}"#)
        XCTAssertEqual(screens(client).last?["restorationIdentifier"], .string("dara-okafor"))
        XCTAssertEqual(client.session.screenPath, ["dara-okafor"])
        // A reload after the session expired: a new session on the URL's screen path.
        let reopened = try SceneTestClient(scene: "team", registry: demoRegistry(), screenPath: client.session.screenPath)
        XCTAssertEqual(screens(reopened).map { $0["title"] }, [.string("Team"), .string("Dara Okafor")])
    }
}
