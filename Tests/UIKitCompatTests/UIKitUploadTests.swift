import UIKitCompat
import XCTest

// An attachments screen as a UIKit app writes it: a document picker whose picks append
// to a list, a progress view following the upload, a label for cancel and errors.

final class AttachmentsViewController: UIViewController {
    let bag = DisposeBag()
    let picker = UIDocumentPickerViewController(forOpeningContentTypes: ["image/*", "text/plain"])
    let progressView = UIProgressView()
    let statusLabel = UILabel()
    let attachments = BehaviorRelay<[String]>(value: [])

    override func viewDidLoad() {
        super.viewDidLoad()
        picker.allowsMultipleSelection = true
        picker.rx.progress.map { Float($0.fractionCompleted) }.bind(to: progressView.rx.progress).disposed(by: bag)
        picker.rx.didPickDocuments
            .map { [attachments] files in attachments.value + files.map { "\($0.name) (\($0.size) bytes)" } }
            .bind(to: attachments)
            .disposed(by: bag)
        picker.rx.documentPickerWasCancelled.map { "Cancelled" }.bind(to: statusLabel.rx.text).disposed(by: bag)
        picker.rx.uploadDidFail.map { $0.code.rawValue }.bind(to: statusLabel.rx.text).disposed(by: bag)
    }
}

final class UIKitUploadTests: XCTestCase {
    func testAPickAppendsAttachmentsAndProgressFollowsTheBytes() throws {
        let controller = AttachmentsViewController()
        controller.loadViewIfNeeded()
        let picker = controller.picker
        try picker.beginUpload("1", name: "cat.png", contentType: "image/png", size: 4, last: false, limit: 1 << 20)
        try picker.appendUploadChunk("1", offset: 0, data: Data([1, 2]))
        XCTAssertEqual(controller.progressView.progress, 0.5)
        try picker.appendUploadChunk("1", offset: 2, data: Data([3, 4]))
        try picker.endUpload("1")
        XCTAssertEqual(controller.attachments.value, [], "the pick is delivered with its last file")
        try picker.beginUpload("2", name: "notes.txt", contentType: "text/plain", size: 0, last: true, limit: 1 << 20)
        try picker.endUpload("2")
        XCTAssertEqual(controller.attachments.value, ["cat.png (4 bytes)", "notes.txt (0 bytes)"])
        XCTAssertEqual(controller.progressView.progress, 1)
    }

    func testCancelAndRefusalsReachTheLabel() throws {
        let controller = AttachmentsViewController()
        controller.loadViewIfNeeded()
        XCTAssertThrowsError(try controller.picker.beginUpload("1", name: "a.pdf", contentType: "application/pdf", size: 1,
                                                               limit: 100))
        XCTAssertEqual(controller.statusLabel.text, "bad-value")
        controller.picker.cancelUpload()
        XCTAssertEqual(controller.statusLabel.text, "Cancelled")
    }
}
