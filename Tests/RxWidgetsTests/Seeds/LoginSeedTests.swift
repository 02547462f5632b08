import Foundation
import RxCore
import RxTesting
import RxWidgets
import XCTest

// Seed 5 (the `login` scene): the MVVM seed's view model with `@SubjectProperty` email and
// password two-way bound to text fields, and a `CocoaAction(enabledIf:workFactory:)`
// enabled only for an email of at least 10 characters and a password of at least 4,
// bound to the button with `rx.action`. The work takes one (virtual) second.

final class LoginViewModel: BindableObject {
    @SubjectProperty(wrappedValue: "", key: "email")
    var email: String
    @SubjectProperty(wrappedValue: "", key: "password")
    var password: String
    @ObservableProperty
    private(set) var status: String = ""

    lazy var loginAction = CocoaAction(enabledIf: canExecuteLogin,
                                       workFactory: { [weak self] (_) -> Observable<Void> in
                                           guard let self else { return Observable.just(()) }
                                           self.status = "Signing in…"
                                           let email = self.email
                                           return Observable<Void>.just(())
                                               .delay(.seconds(1), scheduler: self.scheduler)
                                               .do(onNext: { [weak self] in self?.status = "Signed in as \(email)" })
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

final class LoginViewController: ViewController {
    let email = TextField()
    let password = TextField()
    let loginButton = Button()
    let status = Label()

    let viewModel: LoginViewModel

    private let disposeBag = DisposeBag()

    init(viewModel: LoginViewModel) {
        self.viewModel = viewModel
        super.init()
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        email.placeholder = "Email"
        password.placeholder = "Password"
        password.isSecureTextEntry = true
        loginButton.setTitle("Sign in", for: .normal)

        disposeBag.insert(viewModel.$email.bind(to: email.rx.text),
                          viewModel.$password.bind(to: password.rx.text),
                          email.rx.text.orEmpty.bind(to: viewModel.$email),
                          password.rx.text.orEmpty.bind(to: viewModel.$password),
                          viewModel.$status.bind(to: status.rx.text))
        loginButton.rx.action = viewModel.loginAction
    }

    func makeTree() -> WidgetTree {
        widgetTestTree(["email": email, "password": password, "loginButton": loginButton, "status": status])
    }
}

final class LoginSeedTests: XCTestCase {
    func testTheButtonIsEnabledOnlyForAValidEmailAndPassword() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let controller = LoginViewController(viewModel: LoginViewModel(scheduler: scheduler))
        controller.loadViewIfNeeded()
        let tree = controller.makeTree()
        XCTAssertFalse(controller.loginButton.isEnabled)
        XCTAssertEqual(tree.snapshot().first { $0.id == "password" }?.properties["isSecureTextEntry"], .bool(true))

        try controller.email.sendUserEvent(.editingChanged, value: .string("me@ex.com")) // 9 characters
        try controller.password.sendUserEvent(.editingChanged, value: .string("1234"))
        XCTAssertEqual(controller.viewModel.email, "me@ex.com")
        XCTAssertFalse(controller.loginButton.isEnabled)

        try controller.email.sendUserEvent(.editingChanged, value: .string("me@exa.com")) // 10
        XCTAssertTrue(controller.loginButton.isEnabled)
        XCTAssertEqual(widgetTestChanges(tree), [
            "email.text = \"me@exa.com\"",
            "password.text = \"1234\"",
            "loginButton.isEnabled = true",
        ])

        try controller.password.sendUserEvent(.editingChanged, value: .string("123"))
        XCTAssertFalse(controller.loginButton.isEnabled)
    }

    func testTheViewModelWritesBackToTheTextFields() throws {
        let controller = LoginViewController(viewModel: LoginViewModel(scheduler: TestScheduler(initialClock: 0)))
        controller.loadViewIfNeeded()
        let tree = controller.makeTree()

        controller.viewModel.email = "admin@example.com"
        XCTAssertEqual(controller.email.text, "admin@example.com")
        XCTAssertEqual(widgetTestChanges(tree), ["email.text = \"admin@example.com\""])

        // The user's own text comes back from the view model unchanged: no echo write.
        try controller.email.sendUserEvent(.editingChanged, value: .string("user@example.com"))
        XCTAssertEqual(controller.viewModel.email, "user@example.com")
        XCTAssertEqual(widgetTestChanges(tree), ["email.text = \"user@example.com\""])
    }

    func testSigningInTakesOneSecondAndDisablesTheButtonMeanwhile() throws {
        // No simulated processing delay: the work's completion lands exactly 1 s later.
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        let controller = LoginViewController(viewModel: LoginViewModel(scheduler: scheduler))
        controller.loadViewIfNeeded()
        let tree = controller.makeTree()
        try controller.email.sendUserEvent(.editingChanged, value: .string("user@example.com"))
        try controller.password.sendUserEvent(.editingChanged, value: .string("hunter2"))
        _ = tree.takeChanges()

        let executing = scheduler.createObserver(Bool.self)
        let errors = scheduler.createObserver(String.self)
        let status = scheduler.createObserver(String.self)
        let bag = DisposeBag()
        controller.viewModel.loginAction.executing.subscribe(executing).disposed(by: bag)
        controller.viewModel.loginAction.errors.map(widgetTestDescribe).subscribe(errors).disposed(by: bag)
        controller.viewModel.$status.subscribe(status).disposed(by: bag)

        var answers: [String] = []
        scheduler.scheduleAt(100) {
            do {
                try controller.loginButton.sendUserEvent(.touchUpInside)
                answers.append("tap ok")
            } catch {
                answers.append("\(error)")
            }
            XCTAssertEqual(controller.status.text, "Signing in…")
            XCTAssertFalse(controller.loginButton.isEnabled)
            XCTAssertEqual(widgetTestChanges(tree), [
                "status.text = \"Signing in…\"",
                "loginButton.isEnabled = false",
            ])
        }
        scheduler.scheduleAt(100) {
            // A user's second tap meets a disabled button; the server answers `disabled`.
            do {
                try controller.loginButton.sendUserEvent(.touchUpInside)
                answers.append("second tap ok")
            } catch {
                answers.append("\(error)")
            }
            // Sent anyway (in code), the tap reaches the action, which is not enabled.
            controller.loginButton.sendActions(for: .touchUpInside)
        }
        scheduler.scheduleAt(150) {
            XCTAssertEqual(controller.status.text, "Signed in as user@example.com")
            XCTAssertTrue(controller.loginButton.isEnabled)
            XCTAssertEqual(widgetTestChanges(tree), [
                "status.text = \"Signed in as user@example.com\"",
                "loginButton.isEnabled = true",
            ])
        }
        scheduler.start()

        XCTAssertEqual(answers, ["tap ok", "disabled: button 'loginButton' is disabled"])
        XCTAssertEqual(executing.events, [.next(0, false), .next(100, true), .next(101, false)])
        XCTAssertEqual(status.events, [.next(0, ""), .next(100, "Signing in…"), .next(101, "Signed in as user@example.com")])
        XCTAssertEqual(errors.events, [.next(100, "notEnabled")])
    }
}
