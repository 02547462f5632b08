import RxCore
import RxWidgets
import XCTest

/// `accessibilityLabel` on every view and `textContentType` on text fields: what the
/// browser client names controls with and hands to autofill.
final class AccessibilityTests: XCTestCase {
    func testAccessibilityLabelIsRecordedAndSentOnlyWhenSet() {
        let slider = Slider()
        let tree = widgetTestTree(["s": slider])
        XCTAssertNil(slider.accessibilityLabel)
        XCTAssertNil(slider.snapshot()["accessibilityLabel"], "not on the wire until set")
        slider.accessibilityLabel = "Brightness"
        slider.accessibilityLabel = "Brightness"
        XCTAssertEqual(slider.snapshot()["accessibilityLabel"], .string("Brightness"))
        slider.accessibilityLabel = nil
        XCTAssertEqual(widgetTestChanges(tree), [], "set and cleared within one turn: no change")
        slider.accessibilityLabel = "Level"
        XCTAssertEqual(widgetTestChanges(tree), ["s.accessibilityLabel = \"Level\""])
    }

    func testTextContentTypeIsTheAutocompleteToken() {
        let field = TextField()
        let tree = widgetTestTree(["f": field])
        XCTAssertNil(field.textContentType)
        XCTAssertNil(field.snapshot()["textContentType"])
        field.textContentType = .newPassword
        XCTAssertEqual(widgetTestChanges(tree), ["f.textContentType = \"new-password\""])
        XCTAssertEqual(field.snapshot()["textContentType"], .string("new-password"))
        XCTAssertEqual(TextContentType.password.rawValue, "current-password", "UIKit's .password is the existing one")
        XCTAssertEqual(TextContentType.emailAddress.rawValue, "email")
        XCTAssertEqual(TextContentType(rawValue: "one-time-code"), .oneTimeCode)
    }
}
