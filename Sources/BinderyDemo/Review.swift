import Foundation
import Bindery
import RxCore
import RxWidgets

/// A reusable component, built in code as a `UIView` subclass is: a caption, a value out
/// of five and the two buttons that change it. Its subviews and bindings are its own, so
/// a page can hold several.
public final class RatingView: View {
    let caption = Label()
    let row = StackView()
    let less = Button()
    let stars = Label()
    let more = Button()
    /// The rating, 1 to 5.
    public let value = BehaviorRelay(value: 3)
    private let bag = DisposeBag()

    /// A rating of `topic` ("Food"), starting at 3.
    public init(topic: String) {
        super.init(frame: .zero)
        caption.text = topic
        less.setTitle("−", for: .normal)
        less.accessibilityLabel = "Lower the \(topic.lowercased()) rating"
        more.setTitle("+", for: .normal)
        more.accessibilityLabel = "Raise the \(topic.lowercased()) rating"
        row.axis = .horizontal
        row.alignment = .center
        row.spacing = 12
        for view in [less, stars, more] { row.addArrangedSubview(view) }
        addSubview(caption)
        addSubview(row)
        less.rx.tap.withLatestFrom(value).map { max($0 - 1, 1) }.bind(to: value).disposed(by: bag)
        more.rx.tap.withLatestFrom(value).map { min($0 + 1, 5) }.bind(to: value).disposed(by: bag)
        value.map { String(repeating: "★", count: $0) + String(repeating: "☆", count: 5 - $0) }
            .bind(to: stars.rx.text).disposed(by: bag)
    }

    /// Bindery has no archives: as UIKit's views, built in code only.
    public required init?(coder: NSCoder) { nil }
}

extension Reactive where Base: RatingView {
    /// The rating as it changes, for the component's users to bind.
    public var rating: Observable<Int> { base.value.asObservable() }
}

/// The `review` scene, written as UIKit code is: stack views, two instances of a custom
/// view, and guest fields added and removed at run time. No `Scene` conformance: the page
/// is the view tree under `view`.
public final class ReviewViewController: ViewController {
    let content = StackView()
    let intro = Label()
    let food = RatingView(topic: "Food")
    let service = RatingView(topic: "Service")
    let summary = Label()
    let guests = StackView()
    let buttons = StackView()
    let addGuest = Button()
    let removeGuest = Button()
    private var guestFields: [TextField] = []
    private let bag = DisposeBag()

    override public func viewDidLoad() {
        super.viewDidLoad()
        intro.text = "How was dinner at Mirabelle?"
        content.axis = .vertical
        content.spacing = 20
        guests.axis = .vertical
        guests.spacing = 10
        buttons.axis = .horizontal
        buttons.spacing = 12
        addGuest.setTitle("Add a guest", for: .normal)
        removeGuest.setTitle("Remove the last guest", for: .normal)
        buttons.addArrangedSubview(addGuest)
        buttons.addArrangedSubview(removeGuest)
        for view in [intro, food, service, summary, guests, buttons] { content.addArrangedSubview(view) }
        view.addSubview(content)
        addGuestField()

        Observable.combineLatest(food.rx.rating, service.rx.rating) { food, service in
            "Food \(food) of 5, service \(service) of 5."
        }
        .bind(to: summary.rx.text).disposed(by: bag)
        addGuest.rx.tap.subscribe(onNext: { [unowned self] in addGuestField() }).disposed(by: bag)
        removeGuest.rx.tap.subscribe(onNext: { [unowned self] in
            guard guestFields.count > 1 else { return }
            guestFields.removeLast().removeFromSuperview()
            removeGuest.isEnabled = guestFields.count > 1
        }).disposed(by: bag)
    }

    private func addGuestField() {
        let field = TextField()
        let number = guestFields.count + 1
        field.placeholder = "Name"
        field.accessibilityLabel = "Guest \(number)"
        guestFields.append(field)
        guests.addArrangedSubview(field)
        removeGuest.isEnabled = guestFields.count > 1
    }
}
