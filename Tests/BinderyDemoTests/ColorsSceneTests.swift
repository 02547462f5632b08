import BinderyDemo
import Bindery
import BinderyTesting
import RxWidgets
import XCTest

final class ColorsSceneTests: XCTestCase {
    func testTheSceneStartsOnRedAndMidGrey() throws {
        let client = try demoClient("colors")
        XCTAssertEqual(client.widgets.map(\.id), ["picker", "valueLabel", "whiteSlider", "canvas", "resetButton"])
        XCTAssertEqual(client.widgets.map(\.kind), ["segmentedControl", "label", "slider", "view", "button"])
        XCTAssertEqual(client.widget("picker")?["segments"], .strings(["Red", "Green", "Blue"]))
        XCTAssertEqual(client.widget("picker")?["selectedSegmentIndex"], .number(0))
        XCTAssertEqual(client.widget("valueLabel")?.text, "Red")
        XCTAssertEqual(client.widget("valueLabel")?["textColor"], .color(Color(hex: "#ff0000ff")!))
        XCTAssertEqual(client.widget("whiteSlider")?["value"], .number(0.5))
        XCTAssertEqual(client.widget("whiteSlider")?["minimumValue"], .number(0))
        XCTAssertEqual(client.widget("whiteSlider")?["maximumValue"], .number(1))
        XCTAssertEqual(client.widget("canvas")?["backgroundColor"]?.description, "#808080ff")
        XCTAssertEqual(client.widget("resetButton")?["title"], .string("Reset"))
    }

    func testThePickerNamesTheColourInThatColour() throws {
        let client = try demoClient("colors")
        let expected: [(Int, String, String)] = [
            (1, "Green", "#00ff00ff"), (2, "Blue", "#0000ffff"), (0, "Red", "#ff0000ff"), (-1, "Unknown", "#000000ff"),
        ]
        for (index, name, colour) in expected {
            XCTAssertEqual(client.send(event: "valueChanged", to: "picker", value: index).changeDescriptions,
                           ["valueLabel.text = \"\(name)\"", "valueLabel.textColor = \(colour)"], "segment \(index)")
        }
        XCTAssertEqual(client.send(event: "valueChanged", to: "picker", value: 3).errorCode, "bad-value")
        XCTAssertEqual(client.widget("valueLabel")?.text, "Unknown")
        XCTAssertEqual(client.divergence(), [])
    }

    func testTheSliderGreysTheCanvasChannelByChannel() throws {
        let client = try demoClient("colors")
        XCTAssertEqual(client.send(event: "valueChanged", to: "whiteSlider", value: 0.25).changeDescriptions,
                       ["canvas.backgroundColor = #404040ff"])
        // round(0.3 * 255) = round(76.5) = 77 = 0x4d.
        XCTAssertEqual(client.send(event: "valueChanged", to: "whiteSlider", value: 0.3).changeDescriptions,
                       ["canvas.backgroundColor = #4d4d4dff"])
        XCTAssertEqual(client.send(event: "valueChanged", to: "whiteSlider", value: 0).changeDescriptions,
                       ["canvas.backgroundColor = #000000ff"])
        // Clamped, as UIKit does: the clamped value comes back.
        XCTAssertEqual(client.send(event: "valueChanged", to: "whiteSlider", value: 1.5).changeDescriptions,
                       ["whiteSlider.value = 1.0", "canvas.backgroundColor = #ffffffff"])
        XCTAssertEqual(client.widget("canvas")?["backgroundColor"], .color(Color(white: 1, alpha: 1)))
        XCTAssertEqual(client.divergence(), [])
    }

    func testResetPutsSliderAndCanvasBackToMidGrey() throws {
        let client = try demoClient("colors")
        client.send(event: "valueChanged", to: "whiteSlider", value: 0.1)
        XCTAssertEqual(client.tap("resetButton").changeDescriptions,
                       ["whiteSlider.value = 0.5", "canvas.backgroundColor = #808080ff"])
        XCTAssertEqual(client.tap("resetButton").changeDescriptions, [], "already there")
        XCTAssertEqual(client.divergence(), [])
    }
}
