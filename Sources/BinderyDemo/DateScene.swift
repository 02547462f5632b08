import Bindery
import Foundation
import RxCore
import RxWidgets

/// The `date` scene (seed 4): the Now button's tap binds the current date to a text
/// field through a custom `Binder<Date>` that formats it ("2024년 05월 01일 09:30",
/// in the server's local time zone, `TZ`).
public final class DateViewController: ViewController, Scene {
    /// Reads the clock.
    public let nowButton = Button()
    /// Shows the formatted date.
    public let dateField = TextField()

    /// The clock: the system's in the app, a fixed one in tests.
    private let now: () -> Date
    private let bag = DisposeBag()

    /// A date scene reading `now` on each tap.
    public init(now: @escaping () -> Date = Date.init) {
        self.now = now
        super.init()
    }

    /// The scene's widgets under their contract ids, in display order.
    public var sceneWidgets: [(id: String, widget: View)] {
        [("nowButton", nowButton), ("dateField", dateField)]
    }

    /// The field with the Now button beside it.
    public var sceneLayout: SceneLayout? {
        .row([.widget("dateField"), .widget("nowButton")], alignment: .trailing)
    }

    /// Binds the button's taps, mapped to the clock's date, to the field.
    override public func viewDidLoad() {
        super.viewDidLoad()
        nowButton.setTitle("Now", for: .normal)
        dateField.placeholder = "Tap Now"
        dateField.accessibilityLabel = "Date and time"
        nowButton.rx.tap
            .map { [now] in now() }
            .bind(to: dateField.rx.formattedText)
            .disposed(by: bag)
    }
}

/// With a store, a session of the date scene moves to another server with the date it
/// shows, not a replayed tap (which would read the clock again).
extension DateViewController: StateRestoring {
    /// Keeps the field's text.
    public func encodeRestorableState(with coder: StateCoder) {
        coder.encode(dateField.text, forKey: "dateField.text")
    }

    /// Puts the field's text back.
    public func decodeRestorableState(with coder: StateCoder) {
        dateField.text = coder.decodeObject(forKey: "dateField.text") as? String
    }
}

extension Reactive where Base: TextField {
    /// Seed 4's binder: a date as "yyyy년 MM월 dd일 HH:mm" in the local time zone.
    var formattedText: Binder<Date> {
        return Binder(self.base) { textField, date in
            textField.text = DemoDateFormat.string(from: date)
        }
    }
}

/// The `date` scene's format.
enum DemoDateFormat {
    /// The format, as the contract gives it.
    static let pattern = "yyyy년 MM월 dd일 HH:mm"

    /// `date` in ``pattern`` and the process's current time zone (`TZ`). A formatter
    /// per tap, as the seed has it: taps are rare, and a shared one would need a lock.
    static func string(from date: Date) -> String {
        let formatter = DateFormatter()
        // A fixed format wants the POSIX locale (Gregorian calendar, ASCII digits)
        // whatever the server's locale is.
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone.current
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }
}
