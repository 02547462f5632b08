import RxTesting
import UIKitCompat
import XCTest

// The six seed examples as RxCocoa-era code: UIKit class names, UIKit imports changed to
// `import UIKitCompat` (which brings RxCore and RxWidgets). Outlets become constants, as
// there are no storyboards.

// MARK: - Seed 1: custom Binder<Int>

final class CustomBinderViewController: UIViewController {
    let bag = DisposeBag()

    let valueLabel = UILabel()
    let colorPicker = UISegmentedControl(items: ["Red", "Green", "Blue"])

    override func viewDidLoad() {
        super.viewDidLoad()
        colorPicker.selectedSegmentIndex = 0
        colorPicker.rx.selectedSegmentIndex
            .bind(to: valueLabel.rx.segmentedValue)
            .disposed(by: bag)
    }
}

extension Reactive where Base: UILabel {
    var segmentedValue: Binder<Int> {
        return Binder(self.base) { label, index in
            switch index {
            case 0:
                label.text = "Red"
                label.textColor = UIColor.red
            case 1:
                label.text = "Green"
                label.textColor = UIColor.green
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

// MARK: - Seed 2: custom ControlProperty<UIColor?> and bind(to: a, b)

final class CustomControlPropertyViewController: UIViewController {
    let bag = DisposeBag()

    let resetButton = UIButton(type: .system)
    let whiteSlider = UISlider()

    override func viewDidLoad() {
        super.viewDidLoad()
        whiteSlider.value = 0.5

        whiteSlider.rx.color
            .bind(to: view.rx.backgroundColor)
            .disposed(by: bag)

        resetButton.rx.tap
            .map { _ in UIColor(white: 0.5, alpha: 1.0) }
            .bind(to: whiteSlider.rx.color.asObserver(),
                  view.rx.backgroundColor.asObserver())
            .disposed(by: bag)
    }
}

extension Reactive where Base: UISlider {
    var color: ControlProperty<UIColor?> {
        return base.rx.controlProperty(editingEvents: .valueChanged, getter: { slider in
            UIColor(white: CGFloat(slider.value), alpha: 1.0)
        }, setter: { slider, color in
            var white = CGFloat(1)
            color?.getWhite(&white, alpha: nil)
            slider.value = Float(white)
        })
    }
}

// MARK: - Seed 3: rx.countText

final class CountViewController: UIViewController {
    let bag = DisposeBag()

    let inputField = UITextField()
    let countLabel = UILabel()

    override func viewDidLoad() {
        super.viewDidLoad()
        inputField.rx.text
            .bind(to: countLabel.rx.countText)
            .disposed(by: bag)
    }
}

extension Reactive where Base: UILabel {
    var countText: Binder<String?> {
        return Binder(self.base) { label, text in
            label.text = "\(text?.count ?? 0)개"
        }
    }
}

// MARK: - Seed 4: rx.formattedText, a Binder<Date>

final class DateBinderViewController: UIViewController {
    let bag = DisposeBag()

    let nowButton = UIButton()
    let dateField = UITextField()

    override func viewDidLoad() {
        super.viewDidLoad()
        nowButton.rx.tap
            .map { Date() }
            .bind(to: dateField.rx.formattedText)
            .disposed(by: bag)
    }
}

extension Reactive where Base: UITextField {
    var formattedText: Binder<Date> {
        return Binder(self.base) { textField, date in
            let formatter = DateFormatter()
            formatter.dateFormat = "yyyy년 MM월 dd일 HH:mm"
            textField.text = formatter.string(from: date)
        }
    }
}

// MARK: - Seed 5: MVVM login with @SubjectProperty and CocoaAction

class ViewModel: BindableObject {
    @SubjectProperty(wrappedValue: "", key: "email")
    var email: String
    @SubjectProperty(wrappedValue: "", key: "password")
    var password: String

    lazy var loignAction = CocoaAction(enabledIf: canExecuteLogin,
                                       workFactory: { [scheduler] (_) -> Observable<Void> in
                                           return Observable<Void>.just(()).delay(.seconds(5), scheduler: scheduler)
                                       })

    private let canExecuteLogin = BehaviorSubject<Bool>(value: false)
    private let scheduler: SchedulerType

    init(scheduler: SchedulerType = MainScheduler.asyncInstance) {
        self.scheduler = scheduler
        _email.delegate = self
        _password.delegate = self
    }

    func didChanged(key: AnyHashable) {
        switch key {
        case _email.key, _password.key:
            canExecuteLogin.onNext(email.count >= 10 && password.count >= 4)
        default:
            break
        }
    }
}

class LoginViewController: UIViewController {
    let email = UITextField()
    let password = UITextField()
    let confirm = UIButton()

    let viewModel: ViewModel

    private let disposeBag = DisposeBag()

    init(viewModel: ViewModel) {
        self.viewModel = viewModel
        super.init()
    }

    override func viewDidLoad() {
        super.viewDidLoad()

        disposeBag.insert(viewModel.$email.bind(to: email.rx.text),
                          viewModel.$password.bind(to: password.rx.text),
                          email.rx.text.orEmpty.bind(to: viewModel.$email),
                          password.rx.text.orEmpty.bind(to: viewModel.$password))
        confirm.rx.action = viewModel.loignAction
    }
}

// MARK: - Seed 6: @ObservableProperty list with a load-more action

struct Repo {
    let name: String
    let author: String
}

class ListViewModel {
    @ObservableProperty
    private(set) var repos: [Repo] = []

    lazy var loadMoreAction = CocoaAction(enabledIf: canExecuteLoadMore,
                                          workFactory: { [weak self] _ -> Observable<Void> in
                                              // fetch data and append
                                              let count = self?.repos.count ?? 0
                                              self?.appendRepo((count..<(count + 20)).map { Repo(name: "repo-\($0 + 1)", author: "author-\($0 + 1)") })
                                              return .just(())
                                          })

    private let canExecuteLoadMore = BehaviorSubject<Bool>(value: true)

    private func appendRepo(_ repos: [Repo]) {
        if repos.isEmpty {
            canExecuteLoadMore.onNext(false)
        } else {
            self.repos.append(contentsOf: repos)
        }
    }
}

final class RepoListViewController: UIViewController {
    let tableView = ListView()
    let loadMoreButton = UIButton()
    let viewModel = ListViewModel()
    private let bag = DisposeBag()

    override func viewDidLoad() {
        super.viewDidLoad()
        viewModel.$repos
            .bind(to: tableView.rx.items) { _, _, repo in
                ListRow(id: repo.name, fields: ["name": .string(repo.name), "author": .string(repo.author)])
            }
            .disposed(by: bag)
        loadMoreButton.rx.action = viewModel.loadMoreAction
    }
}

// MARK: - They run

final class UIKitSeedsTests: XCTestCase {
    func testCustomBinder() throws {
        let controller = CustomBinderViewController()
        controller.loadViewIfNeeded()
        XCTAssertEqual(controller.valueLabel.text, "Red")
        try controller.colorPicker.sendUserEvent(.valueChanged, value: .number(1))
        XCTAssertEqual(controller.valueLabel.textColor, UIColor.green)
    }

    func testCustomControlProperty() throws {
        let controller = CustomControlPropertyViewController()
        controller.loadViewIfNeeded()
        let tree = WidgetTree()
        try tree.add(controller.view, id: "view")
        try tree.add(controller.whiteSlider, id: "whiteSlider")
        try tree.add(controller.resetButton, id: "resetButton")
        XCTAssertEqual(controller.view.backgroundColor, UIColor(white: 0.5, alpha: 1))

        try controller.whiteSlider.sendUserEvent(.valueChanged, value: .number(1))
        XCTAssertEqual(controller.view.backgroundColor, .white)
        try controller.resetButton.sendUserEvent(.touchUpInside)
        XCTAssertEqual(controller.whiteSlider.value, 0.5)
        XCTAssertEqual(tree.takeChanges(), [], "back where they started: nothing to send")
    }

    func testCountText() throws {
        let controller = CountViewController()
        controller.loadViewIfNeeded()
        try controller.inputField.sendUserEvent(.editingChanged, value: .string("RxSwift"))
        XCTAssertEqual(controller.countLabel.text, "7개")
    }

    func testFormattedText() throws {
        let controller = DateBinderViewController()
        controller.loadViewIfNeeded()
        try controller.nowButton.sendUserEvent(.touchUpInside)
        XCTAssertEqual(controller.dateField.text?.count, "2024년 05월 01일 09:30".count)
    }

    func testLogin() throws {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        let controller = LoginViewController(viewModel: ViewModel(scheduler: scheduler))
        controller.loadViewIfNeeded()
        XCTAssertFalse(controller.confirm.isEnabled)
        try controller.email.sendUserEvent(.editingChanged, value: .string("someone@example.com"))
        try controller.password.sendUserEvent(.editingChanged, value: .string("secret"))
        XCTAssertTrue(controller.confirm.isEnabled)

        scheduler.scheduleAt(10) { _ = try? controller.confirm.sendUserEvent(.touchUpInside) }
        scheduler.scheduleAt(11) { XCTAssertFalse(controller.confirm.isEnabled) }
        scheduler.start()
        XCTAssertEqual(scheduler.clock, 15)
        XCTAssertTrue(controller.confirm.isEnabled)
    }

    func testLoadMore() throws {
        let controller = RepoListViewController()
        controller.loadViewIfNeeded()
        try controller.loadMoreButton.sendUserEvent(.touchUpInside)
        try controller.loadMoreButton.sendUserEvent(.touchUpInside)
        XCTAssertEqual(controller.tableView.items.count, 40)
        XCTAssertEqual(controller.tableView.items[39]["author"], .string("author-40"))
    }

    func testUIKitNamesAreTheWidgets() {
        let control: UIControl = UISwitch()
        XCTAssertEqual(control.kind, "switch")
        XCTAssertEqual(UIControl.Event.valueChanged, Control.Event.valueChanged)
        XCTAssertEqual(UIControl.State.disabled, Control.State.disabled)
        XCTAssertEqual(UISegmentedControl.noSegment, -1)
        XCTAssertEqual(UIStepper().maximumValue, 100)
        XCTAssertEqual(UIProgressView().progress, 0)
        XCTAssertFalse(UIActivityIndicatorView().isAnimating)
        XCTAssertNil(UIImageView().image)
        XCTAssertNotNil(UIImage(named: "logo"))
        XCTAssertNotNil(UIDatePicker().date)
    }
}
