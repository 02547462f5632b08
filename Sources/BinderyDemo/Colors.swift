import Bindery
import Foundation
import RxCore
import RxWidgets

/// The `colors` scene (seeds 1 and 2): a segmented control drives a label through a
/// custom `Binder<Int>`; a slider drives a view's background through a custom two-way
/// `ControlProperty<Color?>`; a reset button binds one colour to both at once.
public final class ColorsViewController: ViewController, Scene {
    /// Red, Green, Blue; starts on Red.
    public let picker = SegmentedControl(items: ["Red", "Green", "Blue"])
    /// The picked colour's name, in that colour.
    public let valueLabel = Label()
    /// White level, 0…1, starting at 0.5.
    public let whiteSlider = Slider()
    /// The view whose background follows the slider.
    public let canvas = View()
    /// Puts slider and canvas back to mid grey.
    public let resetButton = Button()

    private let bag = DisposeBag()

    /// The scene's widgets under their contract ids, in display order.
    public var sceneWidgets: [(id: String, widget: View)] {
        [("picker", picker), ("valueLabel", valueLabel), ("whiteSlider", whiteSlider),
         ("canvas", canvas), ("resetButton", resetButton)]
    }

    /// The picker beside the colour's name, the slider beside Reset, the preview below.
    public var sceneLayout: SceneLayout? {
        .column([
            .row([.widget("picker", caption: "Colour"), .widget("valueLabel")], alignment: .trailing),
            .row([.widget("whiteSlider", caption: "Brightness"), .widget("resetButton")], alignment: .trailing),
            .widget("canvas", caption: "Preview"),
        ])
    }

    /// Sets the initial values, then binds (so the bindings' first values are these).
    override public func viewDidLoad() {
        super.viewDidLoad()
        picker.selectedSegmentIndex = 0
        whiteSlider.minimumValue = 0
        whiteSlider.maximumValue = 1
        whiteSlider.value = 0.5
        resetButton.setTitle("Reset", for: .normal)
        canvas.accessibilityLabel = "Preview"

        picker.rx.selectedSegmentIndex
            .bind(to: valueLabel.rx.segmentedValue)
            .disposed(by: bag)

        whiteSlider.rx.color
            .bind(to: canvas.rx.backgroundColor)
            .disposed(by: bag)

        // Setting the slider in code sends no valueChanged (RxCocoa's rule), so the
        // canvas needs the colour directly too: hence the two observers.
        resetButton.rx.tap
            .map { _ in Color(white: 0.5, alpha: 1.0) }
            .bind(to: whiteSlider.rx.color.asObserver(), canvas.rx.backgroundColor.asObserver())
            .disposed(by: bag)
    }
}

extension Reactive where Base: Label {
    /// Seed 1's binder: a segment index as a colour name shown in that colour.
    var segmentedValue: Binder<Int> {
        return Binder(self.base) { label, index in
            switch index {
            case 0:
                label.text = "Red"
                label.textColor = Color.red
            case 1:
                label.text = "Green"
                label.textColor = Color.green
            case 2:
                label.text = "Blue"
                label.textColor = .blue
            default:
                label.text = "Unknown"
                label.textColor = .black
            }
        }
    }
}

extension Reactive where Base: Slider {
    /// Seed 2's two-way property: the slider's value as a grey (`Color(white:alpha:)`),
    /// and a colour's white level written back to the slider.
    var color: ControlProperty<Color?> {
        return base.rx.controlProperty(editingEvents: .valueChanged, getter: { slider in
            Color(white: CGFloat(slider.value), alpha: 1.0)
        }, setter: { slider, color in
            var white = CGFloat(1)
            color?.getWhite(&white, alpha: nil)
            slider.value = Float(white)
        })
    }
}
