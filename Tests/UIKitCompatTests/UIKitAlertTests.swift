import RxTesting
import UIKitCompat
import XCTest

// RxExample's wireframe prompt, as written for iOS.

enum RetryResult: CustomStringConvertible {
    case retry, cancel

    var description: String {
        switch self {
        case .retry: return "Retry"
        case .cancel: return "Cancel"
        }
    }
}

extension UIViewController {
    func promptFor<Action: CustomStringConvertible>(_ message: String, cancelAction: Action, actions: [Action]) -> Observable<Action> {
        return Observable.create { observer in
            let alertView = UIAlertController(title: "RxExample", message: message, preferredStyle: .alert)
            alertView.addAction(UIAlertAction(title: cancelAction.description, style: .cancel) { _ in
                observer.on(.next(cancelAction))
            })
            for action in actions {
                alertView.addAction(UIAlertAction(title: action.description, style: .default) { _ in
                    observer.on(.next(action))
                })
            }
            self.present(alertView, animated: true, completion: nil)
            return Disposables.create {
                alertView.dismiss(animated: false, completion: nil)
            }
        }
    }
}

final class DownloadViewController: UIViewController {
    let bag = DisposeBag()
    let retryButton = UIButton(type: .system)
    let statusLabel = UILabel()

    override func viewDidLoad() {
        super.viewDidLoad()
        retryButton.rx.tap
            .flatMapLatest { [unowned self] in
                self.promptFor("Download failed", cancelAction: RetryResult.cancel, actions: [RetryResult.retry]).take(1)
            }
            .map { "Chose \($0)" }
            .bind(to: statusLabel.rx.text)
            .disposed(by: bag)
    }
}

final class UIKitAlertTests: XCTestCase {
    func testWireframePromptForRunsTheChosenActionsHandlerOnTheServer() throws {
        let controller = DownloadViewController()
        let host = PresentationStack()
        controller.presentationHost = host
        defer { controller.presentationHost = nil }
        controller.loadViewIfNeeded()

        try controller.retryButton.sendUserEvent(.touchUpInside)
        let alert = try XCTUnwrap(controller.presentedViewController as? UIAlertController)
        XCTAssertEqual(alert.message, "Download failed")
        XCTAssertEqual(alert.actions.map(\.title), ["Cancel", "Retry"])
        XCTAssertEqual(alert.actions.map(\.style), [.cancel, .default])

        try alert.alertView.receive(WidgetEvent(name: "actionTriggered", action: 1))
        XCTAssertEqual(controller.statusLabel.text, "Chose Retry")
        XCTAssertNil(controller.presentedViewController)

        // Escape is the cancel action.
        try controller.retryButton.sendUserEvent(.touchUpInside)
        let second = try XCTUnwrap(controller.presentedViewController as? UIAlertController)
        try second.alertView.receive(WidgetEvent(name: "actionTriggered", action: 0))
        XCTAssertEqual(controller.statusLabel.text, "Chose Cancel")
    }

    func testAlertWithTextFieldsAsUIKitWritesIt() throws {
        let root = UIViewController()
        let host = PresentationStack()
        root.presentationHost = host
        defer { root.presentationHost = nil }
        var saved: String?
        let alert = UIAlertController(title: "New list", message: "Name it", preferredStyle: .alert)
        alert.addTextField { textField in
            textField.placeholder = "Groceries"
        }
        let save = UIAlertAction(title: "Save", style: .default) { _ in
            saved = alert.textFields?.first?.text
        }
        alert.addAction(UIAlertAction(title: "Delete", style: .destructive))
        alert.addAction(save)
        alert.preferredAction = save
        root.present(alert, animated: true)
        try alert.alertView.receive(WidgetEvent(name: "actionTriggered", action: 1, value: .strings(["Books"])))
        XCTAssertEqual(saved, "Books")
    }
}
