import Bindery
import RxCore
import RxWidgets

/// The `counter` scene (seed 3): a label counts the characters typed into a text field
/// ("5개"), through a custom `rx.countText` binder.
public final class CounterViewController: ViewController, Scene {
    /// Where the user types.
    public let textField = TextField()
    /// "\(count)개": characters (grapheme clusters), not bytes.
    public let countLabel = Label()

    private let bag = DisposeBag()

    /// The scene's widgets under their contract ids, in display order.
    public var sceneWidgets: [(id: String, widget: View)] {
        [("textField", textField), ("countLabel", countLabel)]
    }

    /// The field, then its count.
    public var sceneLayout: SceneLayout? {
        .column([.widget("textField"), .widget("countLabel", caption: "Characters")])
    }

    /// Binds the field's text to the label.
    override public func viewDidLoad() {
        super.viewDidLoad()
        textField.placeholder = "Type something"
        textField.accessibilityLabel = "Your text"
        textField.rx.text
            .bind(to: countLabel.rx.countText)
            .disposed(by: bag)
    }
}

extension Reactive where Base: Label {
    /// Seed 3's binder: a text's character count, as "N개".
    var countText: Binder<String?> {
        return Binder(self.base) { label, text in
            let count = text?.count ?? 0
            label.text = "\(count)개"
        }
    }
}
