import Bindery
import RxCore
import RxWidgets

/// The `board` scene, shared: one instance for every client, so `sharedSlider` is seen
/// and moved by all of them, and `viewers` shows how many are connected ("3 online").
public final class BoardViewController: ViewController, Scene {
    /// The slider every client sees and moves.
    public let sharedSlider = Slider()
    /// "N online".
    public let viewers = Label()

    /// The live connection count, from the server's scene context.
    private let viewerCounts: Observable<Int>
    private let bag = DisposeBag()

    /// A board showing `viewerCounts` (the number of live connections; the server
    /// provides it, tests pass a subject).
    public init(viewerCounts: Observable<Int>) {
        self.viewerCounts = viewerCounts
        super.init()
    }

    /// The scene's widgets under their contract ids, in display order.
    public var sceneWidgets: [(id: String, widget: View)] {
        [("sharedSlider", sharedSlider), ("viewers", viewers)]
    }

    /// The slider beside the viewer count.
    public var sceneLayout: SceneLayout? {
        .row([.widget("sharedSlider"), .widget("viewers")], alignment: .trailing)
    }

    /// Sets the slider's range and binds the count. The slider needs no binding: the
    /// server shares its value with every client.
    override public func viewDidLoad() {
        super.viewDidLoad()
        sharedSlider.minimumValue = 0
        sharedSlider.maximumValue = 1
        sharedSlider.value = 0.5
        sharedSlider.accessibilityLabel = "Everyone's slider"
        viewerCounts
            .map { "\($0) online" }
            .bind(to: viewers.rx.text)
            .disposed(by: bag)
    }
}
