import Bindery
import RxWidgets
import XCTest

final class SceneLayoutTests: XCTestCase {
    private func layoutJSON(_ layout: SceneLayout) throws -> JSONValue? {
        let scene = SceneMessage(session: "tok", scene: "s", title: "S", resumed: false, widgets: [], layout: layout)
        return try JSONValue.parse(MessageEncoder.encode(.scene(scene)))["layout"]
    }

    func testDefaultsStayOffTheWire() throws {
        let text = MessageEncoder.encode(.scene(SceneMessage(session: "t", scene: "s", title: "S", resumed: false, widgets: [],
                                                             layout: .row([.widget("a"), .column([.widget("b")])]))))
        XCTAssertTrue(text.hasSuffix(#""layout":{"row":["a",{"column":["b"]}]}}"#), text)
        XCTAssertFalse(text.contains("description"), "no description: no field")
    }

    func testCaptionAlignmentDistributionSpacing() throws {
        let json = try layoutJSON(.row([.widget("field", caption: "Email"), .widget("go")],
                                       alignment: .firstBaseline, distribution: .fillEqually, spacing: 8))
        XCTAssertEqual(json?["row"]?[0]?["widget"], .string("field"))
        XCTAssertEqual(json?["row"]?[0]?["caption"], .string("Email"))
        XCTAssertEqual(json?["row"]?[1], .string("go"))
        XCTAssertEqual(json?["alignment"], .string("firstBaseline"))
        XCTAssertEqual(json?["distribution"], .string("fillEqually"))
        XCTAssertEqual(json?["spacing"], .number(8))
        XCTAssertEqual(SceneLayout.Alignment.top, .leading, "UIStackView's top is a row's leading edge")
    }

    func testGridOfKeys() throws {
        let keys = (0..<20).map { SceneLayout.widget("k\($0)") }
        let json = try layoutJSON(.column([.widget("display", caption: "Result"), .grid(keys, columns: 4, spacing: 6)],
                                          alignment: .center))
        XCTAssertEqual(json?["alignment"], .string("center"))
        let grid = json?["column"]?[1]
        XCTAssertEqual(grid?["columns"], .number(4))
        XCTAssertEqual(grid?["spacing"], .number(6))
        XCTAssertEqual(grid?["grid"]?[19], .string("k19"))
        XCTAssertEqual(try layoutJSON(.grid([], columns: 0))?["columns"], .number(1), "at least one column")
    }

    func testDescriptionInTheSceneMessage() throws {
        let scene = SceneMessage(session: "t", scene: "s", title: "S", resumed: false, widgets: [], description: "Does things.")
        XCTAssertEqual(try JSONValue.parse(MessageEncoder.encode(.scene(scene)))["description"], .string("Does things."))
    }
}
