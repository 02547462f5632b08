import Bindery
import RxCore
import RxWidgets

/// The `echo` scene, for benchmarks: `output` shows `input`'s text uppercased, so an
/// `editingChanged` event on `input` yields one patch with one change (output's text;
/// the sender does not get its own text back).
///
/// The chain is kept to one `map` and a `Binder`: it runs once per message in the
/// benchmark, and anything more (`orEmpty`, `distinctUntilChanged`) is a measurable cost.
public final class EchoViewController: ViewController, Scene {
    /// What the client types.
    public let input = TextField()
    /// `input`'s text, uppercased.
    public let output = Label()

    private let bag = DisposeBag()

    /// An echo scene.
    override public init() {
        super.init()
    }

    /// The scene's widgets under their contract ids, in display order.
    public var sceneWidgets: [(id: String, widget: View)] {
        [("input", input), ("output", output)]
    }

    /// The field, then its echo.
    public var sceneLayout: SceneLayout? {
        .column([.widget("input"), .widget("output", caption: "In capitals")])
    }

    /// Binds input to output.
    override public func viewDidLoad() {
        super.viewDidLoad()
        input.placeholder = "Type here"
        input.accessibilityLabel = "Your text"
        input.rx.text
            .map { $0?.uppercased() }
            .bind(to: output.rx.text)
            .disposed(by: bag)
    }
}
