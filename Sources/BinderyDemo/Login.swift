import Bindery
import RxCore
import RxWidgets

/// The `login` scene's view model (seed 5, MVVM): two-way `@SubjectProperty` email and
/// password, and a `CocoaAction` enabled only for an email of at least 10 characters
/// and a password of at least 4 (and, as every `Action`, not while executing).
public final class LoginViewModel: BindableObject {
    /// The email, two-way bound to its text field.
    @SubjectProperty(wrappedValue: "", key: "email")
    public var email: String
    /// The password, two-way bound to its text field.
    @SubjectProperty(wrappedValue: "", key: "password")
    public var password: String
    /// "" → "Signing in…" → "Signed in as <email>".
    @ObservableProperty
    public private(set) var status: String = ""

    /// Signs in; the work takes one second on the injected scheduler.
    public lazy var loginAction = CocoaAction(enabledIf: canExecuteLogin,
                                              workFactory: { [weak self] (_) -> Observable<Void> in
                                                  guard let self else { return Observable.just(()) }
                                                  self.status = "Signing in…"
                                                  let email = self.email
                                                  return Observable<Void>.just(())
                                                      .delay(.seconds(1), scheduler: self.scheduler)
                                                      .do(onNext: { [weak self] in self?.status = "Signed in as \(email)" })
                                              })

    private let canExecuteLogin = BehaviorSubject<Bool>(value: false)
    /// Injected so tests run the second in virtual time.
    private let scheduler: SchedulerType

    /// A view model whose sign-in waits on `scheduler`.
    public init(scheduler: SchedulerType) {
        self.scheduler = scheduler
        _email.delegate = self
        _password.delegate = self
    }

    /// Re-checks the rule when email or password changes (from either side).
    public func didChanged(key: AnyHashable) {
        switch key {
        case _email.key, _password.key:
            canExecuteLogin.onNext(email.count >= 10 && password.count >= 4)
        default:
            break
        }
    }
}

/// The `login` scene (seed 5): text fields two-way bound to the view model, the button
/// bound to its action with `rx.action`, and the status label.
public final class LoginViewController: ViewController, Scene {
    /// The email field.
    public let email = TextField()
    /// The password field (secure).
    public let password = TextField()
    /// Runs the view model's action; disabled while it cannot.
    public let loginButton = Button()
    /// The sign-in status.
    public let status = Label()

    /// The view model (public so tests can look at it).
    public let viewModel: LoginViewModel

    private let disposeBag = DisposeBag()

    /// A login scene over `viewModel`.
    public init(viewModel: LoginViewModel) {
        self.viewModel = viewModel
        super.init()
    }

    /// The scene's widgets under their contract ids, in display order.
    public var sceneWidgets: [(id: String, widget: View)] {
        [("email", email), ("password", password), ("loginButton", loginButton), ("status", status)]
    }

    /// A sign-in form: the fields, the button, the status.
    public var sceneLayout: SceneLayout? {
        .column([.widget("email"), .widget("password"),
                 .row([.widget("loginButton"), .widget("status")], alignment: .center)])
    }

    /// Binds the fields both ways, the status one way, and the button to the action.
    override public func viewDidLoad() {
        super.viewDidLoad()
        email.accessibilityLabel = "Email"
        email.placeholder = "you@example.com (10 characters or more)"
        email.textContentType = .username
        password.accessibilityLabel = "Password"
        password.placeholder = "4 characters or more"
        password.isSecureTextEntry = true
        password.textContentType = .password
        loginButton.setTitle("Sign in", for: .normal)

        // No echo loop: a field's setter ignores the text it already has.
        disposeBag.insert(viewModel.$email.bind(to: email.rx.text),
                          viewModel.$password.bind(to: password.rx.text),
                          email.rx.text.orEmpty.bind(to: viewModel.$email),
                          password.rx.text.orEmpty.bind(to: viewModel.$password),
                          viewModel.$status.bind(to: status.rx.text))
        loginButton.rx.action = viewModel.loginAction
        // Return in either field signs in, as a form's Return key does (UIKit sends
        // editingDidEndOnExit; the action refuses while it is not enabled).
        Observable.merge(email.rx.controlEvent(.editingDidEndOnExit).asObservable(),
                         password.rx.controlEvent(.editingDidEndOnExit).asObservable())
            .bind(to: viewModel.loginAction.inputs)
            .disposed(by: disposeBag)
    }
}
