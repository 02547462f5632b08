import Bindery
import RxCore
import RxWidgets

extension ViewController {
    /// RxExample's wireframe prompt: an alert (or action sheet) whose chosen action is the
    /// observable's one element; disposing the subscription dismisses the alert.
    func promptFor<Action: CustomStringConvertible>(_ title: String, message: String?, cancelAction: Action,
                                                    actions: [Action], destructive: Set<String> = [],
                                                    style: AlertController.Style = .alert) -> Observable<Action> {
        Observable.create { [weak self] observer in
            let alert = AlertController(title: title, message: message, preferredStyle: style)
            alert.addAction(AlertAction(title: cancelAction.description, style: .cancel) { _ in
                observer.onNext(cancelAction)
                observer.onCompleted()
            })
            for action in actions {
                let style: AlertAction.Style = destructive.contains(action.description) ? .destructive : .default
                alert.addAction(AlertAction(title: action.description, style: style) { _ in
                    observer.onNext(action)
                    observer.onCompleted()
                })
            }
            self?.present(alert, animated: true, completion: nil)
            return Disposables.create { alert.dismiss(animated: false, completion: nil) }
        }
    }
}

/// The `feedback` scene (issue 12's alert-driven form): every step is an alert or an
/// action sheet — rate with a sheet, write a comment in an alert's text field (OK wakes
/// up once something is typed), send after a confirmation, clear after a destructive one.
public final class FeedbackViewController: ViewController, Scene {
    /// Opens the rating sheet.
    public let rateButton = Button()
    /// Opens the comment alert.
    public let commentButton = Button()
    /// Asks "Send feedback?".
    public let sendButton = Button()
    /// Asks "Clear the form?".
    public let clearButton = Button()
    /// "Rating: Loved it".
    public let ratingLabel = Label()
    /// "Comment: …".
    public let commentLabel = Label()
    /// What the feedback is about (a picker).
    public let topicPicker = PickerView()
    /// Longer notes (a multi-line text view).
    public let notesView = TextView()
    /// "12 characters".
    public let notesCountLabel = Label()
    /// What happened last.
    public let statusLabel = Label()

    /// The topics, as the picker's rows.
    public static let topics = ["General", "Design", "Bugs"]

    /// The ratings, as the sheet's actions.
    public static let ratings = ["Loved it", "It was fine", "Not great"]

    private let rating = BehaviorRelay<String?>(value: nil)
    private let comment = BehaviorRelay<String?>(value: nil)
    private let topic = BehaviorRelay(value: "General")
    private let bag = DisposeBag()

    /// The scene's widgets under their ids.
    public var sceneWidgets: [(id: String, widget: View)] {
        [("rateButton", rateButton), ("commentButton", commentButton), ("ratingLabel", ratingLabel),
         ("commentLabel", commentLabel), ("topicPicker", topicPicker), ("notesView", notesView),
         ("notesCountLabel", notesCountLabel), ("sendButton", sendButton), ("clearButton", clearButton), ("statusLabel", statusLabel)]
    }

    /// The buttons in one row, the answers under them, then Send and Clear.
    public var sceneLayout: SceneLayout? {
        .column([.row([.widget("rateButton"), .widget("commentButton")]), .widget("ratingLabel"), .widget("commentLabel"),
                 .widget("topicPicker", caption: "Topic"), .widget("notesView", caption: "Notes"), .widget("notesCountLabel"),
                 .row([.widget("sendButton"), .widget("clearButton")]), .widget("statusLabel")])
    }

    /// Binds each button to its prompt.
    override public func viewDidLoad() {
        super.viewDidLoad()
        rateButton.setTitle("Rate this page…", for: .normal)
        commentButton.setTitle("Add a comment…", for: .normal)
        sendButton.setTitle("Send", for: .normal)
        clearButton.setTitle("Clear", for: .normal)
        statusLabel.text = "Nothing sent yet."
        Observable.just(Self.topics).bind(to: topicPicker.rx.itemTitles) { _, topic in topic }.disposed(by: bag)
        topicPicker.rx.modelSelected(String.self)
            .compactMap(\.first)
            .bind(to: topic)
            .disposed(by: bag)
        notesView.rx.text.orEmpty
            .map { $0.count == 1 ? "Notes: 1 character" : "Notes: \($0.count) characters" }
            .bind(to: notesCountLabel.rx.text)
            .disposed(by: bag)

        rating.map { "Rating: \($0 ?? "none yet")" }.bind(to: ratingLabel.rx.text).disposed(by: bag)
        comment.map { "Comment: \($0 ?? "none yet")" }.bind(to: commentLabel.rx.text).disposed(by: bag)
        Observable.combineLatest(rating, comment) { $0 != nil || $1 != nil }
            .bind(to: sendButton.rx.isEnabled).disposed(by: bag)

        rateButton.rx.tap
            .flatMapLatest { [unowned self] in
                self.promptFor("How was it?", message: "Rate this page.", cancelAction: "Cancel",
                               actions: Self.ratings, destructive: ["Not great"], style: .actionSheet).take(1)
            }
            .subscribe(onNext: { [rating, statusLabel] choice in
                if choice == "Cancel" { statusLabel.text = "Rating cancelled." } else { rating.accept(choice) }
            })
            .disposed(by: bag)

        commentButton.rx.tap
            .subscribe(onNext: { [unowned self] in self.askForComment() })
            .disposed(by: bag)

        sendButton.rx.tap
            .flatMapLatest { [unowned self] in
                self.promptFor("Send feedback?", message: "It goes to the team at once.",
                               cancelAction: "Not yet", actions: ["Send"]).take(1)
            }
            .subscribe(onNext: { [unowned self] choice in
                guard choice == "Send" else { self.statusLabel.text = "Not sent."; return }
                let comment = self.comment.value.map { "“\($0)”" } ?? "no comment"
                self.statusLabel.text = "Thank you! Sent: \(self.rating.value ?? "no rating"), \(comment) (topic: \(self.topic.value))."
                self.rating.accept(nil)
                self.comment.accept(nil)
            })
            .disposed(by: bag)

        clearButton.rx.tap
            .flatMapLatest { [unowned self] in
                self.promptFor("Clear the form?", message: "The rating and the comment are lost.",
                               cancelAction: "Keep", actions: ["Clear"], destructive: ["Clear"]).take(1)
            }
            .subscribe(onNext: { [unowned self] choice in
                guard choice == "Clear" else { return }
                self.rating.accept(nil)
                self.comment.accept(nil)
                self.statusLabel.text = "Cleared."
            })
            .disposed(by: bag)
    }

    /// An alert with a text field; OK is enabled once something is typed.
    private func askForComment() {
        let alert = AlertController(title: "Your comment", message: "What should we change?", preferredStyle: .alert)
        alert.addTextField { [comment] field in
            field.placeholder = "Comment"
            field.text = comment.value ?? ""
        }
        alert.addAction(AlertAction(title: "Cancel", style: .cancel) { [statusLabel] _ in
            statusLabel.text = "Comment cancelled."
        })
        let save = AlertAction(title: "Save", style: .default) { [comment, unowned alert] _ in
            let text = alert.textFields?.first?.text ?? ""
            comment.accept(text.isEmpty ? nil : text)
        }
        alert.addAction(save)
        alert.preferredAction = save
        alert.textFields![0].rx.text.orEmpty.map { !$0.isEmpty }
            .subscribe(onNext: { save.isEnabled = $0 })
            .disposed(by: bag)
        present(alert, animated: true)
    }
}
