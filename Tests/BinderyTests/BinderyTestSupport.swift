import Bindery
import Foundation
import RxCore
import RxTesting
import RxWidgets
import XCTest

/// The `echo` scene used by Bindery's own tests: `input` TextField → `output` Label,
/// uppercased (the demo's `echo` has the same contract).
final class TestEchoViewController: ViewController {
    let bag = DisposeBag()
    let input = TextField()
    let output = Label()

    override func viewDidLoad() {
        super.viewDidLoad()
        input.rx.text.orEmpty
            .map { $0.uppercased() }
            .bind(to: output.rx.text)
            .disposed(by: bag)
    }
}

/// A slider clamped to 0...1 with a label showing its value, and a button that throws in
/// its binding: covers clamping echoes and binding errors.
final class TestWidgetsViewController: ViewController, Scene {
    let bag = DisposeBag()
    let slider = Slider()
    let valueLabel = Label()
    let boom = Button()
    let picker = SegmentedControl(items: ["A", "B"])
    let off = Button()

    override func viewDidLoad() {
        super.viewDidLoad()
        off.isEnabled = false
        slider.rx.value.map { String(format: "%.2f", $0) }.bind(to: valueLabel.rx.text).disposed(by: bag)
        boom.rx.tap
            .map { _ -> String in throw TestBoom() }
            .bind(to: valueLabel.rx.text)
            .disposed(by: bag)
    }

    var sceneLayout: SceneLayout? {
        .column([.row([.widget("slider"), .widget("valueLabel")]), .widget("boom")])
    }
}

struct TestBoom: Error, CustomStringConvertible {
    var description: String { "boom" }
}

/// A registry with `echo`, `widgets` and the shared `board` (a slider and a viewer count).
func makeTestRegistry() -> SceneRegistry {
    let registry = SceneRegistry()
    registry.register("echo", title: "Echo") { TestEchoViewController() }
    registry.register("widgets", title: "Widgets") { TestWidgetsViewController() }
    registry.register("board", title: "Board", sharing: .shared) { context in
        TestBoardViewController(viewers: context.viewerCount)
    }
    return registry
}

final class TestBoardViewController: ViewController {
    let bag = DisposeBag()
    let sharedSlider = Slider()
    let viewers = Label()
    private let viewerCount: Observable<Int>

    init(viewers: Observable<Int>) {
        self.viewerCount = viewers
        super.init()
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        viewerCount.map { "\($0) online" }.bind(to: viewers.rx.text).disposed(by: bag)
    }
}
