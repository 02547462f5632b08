import Foundation
import RxCore
import RxWidgets
import XCTest

/// The picker's receiving end: what fires when (progress, then the pick), the caps, the
/// chunk order, cancel and abort, and that no bytes are left behind after any of them.
final class DocumentPickerTests: XCTestCase {
    private var picker: DocumentPicker!
    private var log: [String] = []
    private var picks: [[PickedFile]] = []
    private let bag = DisposeBag()

    override func setUp() {
        super.setUp()
        picker = DocumentPicker()
        log = []
        picks = []
        picker.rx.progress.subscribe(onNext: { [unowned self] in
            log.append("progress \($0.upload) \($0.completedUnitCount)/\($0.totalUnitCount)")
        }).disposed(by: bag)
        picker.rx.didPickDocuments.subscribe(onNext: { [unowned self] files in
            picks.append(files)
            log.append("pick \(files.map(\.name).joined(separator: ","))")
        }).disposed(by: bag)
        picker.rx.didCancel.subscribe(onNext: { [unowned self] in log.append("cancel") }).disposed(by: bag)
        picker.rx.uploadDidFail.subscribe(onNext: { [unowned self] in log.append("fail \($0.code.rawValue)") }).disposed(by: bag)
    }

    private func code(_ body: () throws -> Void) -> UploadError.Code? {
        do {
            try body()
            return nil
        } catch {
            return (error as? UploadError)?.code
        }
    }

    func testProgressThenThePickWithTheBytesAsSent() throws {
        try picker.beginUpload("u1", name: "a.txt", contentType: "text/plain", size: 5, limit: 100)
        try picker.appendUploadChunk("u1", offset: 0, data: Data("hel".utf8))
        try picker.appendUploadChunk("u1", offset: 3, data: Data("lo".utf8))
        XCTAssertEqual(picker.bufferedByteCount, 5)
        try picker.endUpload("u1")
        XCTAssertEqual(log, ["progress u1 0/5", "progress u1 3/5", "progress u1 5/5", "pick a.txt"])
        XCTAssertEqual(picks, [[PickedFile(name: "a.txt", contentType: "text/plain", data: Data("hello".utf8))]])
        XCTAssertEqual(picker.bufferedByteCount, 0, "the bytes went to the subscriber; the picker keeps none")
        XCTAssertEqual(picker.uploadsInProgress, [])
    }

    func testAMultipleSelectionIsOnePickDeliveredWithItsLastFile() throws {
        picker.allowsMultipleSelection = true
        try picker.beginUpload("u1", name: "1.txt", contentType: "text/plain", size: 1, last: false, limit: 100)
        try picker.appendUploadChunk("u1", offset: 0, data: Data("1".utf8))
        try picker.endUpload("u1")
        XCTAssertEqual(picks, [], "not before the pick's last file")
        XCTAssertEqual(picker.bufferedByteCount, 1)
        try picker.beginUpload("u2", name: "2.txt", contentType: "text/plain", size: 0, last: true, limit: 100)
        try picker.endUpload("u2")
        XCTAssertEqual(picks.map { $0.map(\.name) }, [["1.txt", "2.txt"]])
        XCTAssertEqual(picker.bufferedByteCount, 0)
    }

    func testASingleFilePickerTakesOneFileAtATime() throws {
        try picker.beginUpload("u1", name: "a", contentType: "text/plain", size: 1, limit: 100)
        XCTAssertEqual(code { try picker.beginUpload("u2", name: "b", contentType: "text/plain", size: 1, limit: 100) }, .badValue)
        XCTAssertEqual(picker.uploadsInProgress, ["u1"])
    }

    func testTheDeclaredSizeIsCheckedAgainstTheSmallerCapBeforeAnyByte() throws {
        picker.maxFileSize = 10
        XCTAssertEqual(code { try picker.beginUpload("u1", name: "big", contentType: "x/y", size: 11, limit: 100) }, .tooLarge)
        XCTAssertEqual(code { try picker.beginUpload("u2", name: "big", contentType: "x/y", size: 9, limit: 8) }, .tooLarge,
                       "the server's cap wins when smaller")
        try picker.beginUpload("u3", name: "ok", contentType: "x/y", size: 8, limit: 8)
        XCTAssertEqual(log, ["fail upload-too-large", "fail upload-too-large", "progress u3 0/8"])
        XCTAssertEqual(picker.uploadsInProgress, ["u3"])
    }

    func testTheRunningSizeCannotPassTheDeclaredSize() throws {
        try picker.beginUpload("u1", name: "a", contentType: "x/y", size: 4, limit: 100)
        XCTAssertEqual(code { try picker.appendUploadChunk("u1", offset: 0, data: Data(count: 5)) }, .tooLarge)
        XCTAssertEqual(picker.uploadsInProgress, [], "the upload is dropped")
        XCTAssertEqual(code { try picker.appendUploadChunk("u1", offset: 0, data: Data(count: 1)) }, .aborted)
    }

    func testTheBytesAPickerHoldsAtOnceAreCappedToo() throws {
        picker.allowsMultipleSelection = true
        try picker.beginUpload("u1", name: "a", contentType: "x/y", size: 60, last: false, limit: 100)
        XCTAssertEqual(code { try picker.beginUpload("u2", name: "b", contentType: "x/y", size: 50, limit: 100) }, .tooLarge,
                       "60 declared + 50 > 100, though each file fits")
    }

    func testChunksMustComeInOrderAndEndOnlyWhenComplete() throws {
        try picker.beginUpload("u1", name: "a", contentType: "x/y", size: 4, limit: 100)
        XCTAssertEqual(code { try picker.appendUploadChunk("u1", offset: 2, data: Data(count: 2)) }, .outOfOrder)
        XCTAssertEqual(picker.uploadsInProgress, [], "a confused upload is dropped")
        try picker.beginUpload("u2", name: "a", contentType: "x/y", size: 4, limit: 100)
        try picker.appendUploadChunk("u2", offset: 0, data: Data(count: 2))
        XCTAssertEqual(code { try picker.appendUploadChunk("u2", offset: 0, data: Data(count: 2)) }, .outOfOrder, "a repeated chunk")
        try picker.beginUpload("u3", name: "a", contentType: "x/y", size: 4, limit: 100)
        try picker.appendUploadChunk("u3", offset: 0, data: Data(count: 2))
        XCTAssertEqual(code { try picker.endUpload("u3") }, .outOfOrder, "ended after 2 of 4 bytes")
        XCTAssertEqual(picker.bufferedByteCount, 0)
        XCTAssertEqual(picks, [])
    }

    func testAFailedLastFileStillDeliversThePicksEarlierFiles() throws {
        picker.allowsMultipleSelection = true
        picker.maxFileSize = 3
        try picker.beginUpload("u1", name: "small", contentType: "x/y", size: 1, last: false, limit: 100)
        try picker.appendUploadChunk("u1", offset: 0, data: Data(count: 1))
        try picker.endUpload("u1")
        XCTAssertEqual(code { try picker.beginUpload("u2", name: "big", contentType: "x/y", size: 4, last: true, limit: 100) }, .tooLarge)
        XCTAssertEqual(picks.map { $0.map(\.name) }, [["small"]])
        XCTAssertEqual(picker.bufferedByteCount, 0)
    }

    func testCancelDropsTheUploadAndThePickAndFiresDidCancel() throws {
        picker.allowsMultipleSelection = true
        var cancels = 0
        picker.rx.documentPickerWasCancelled.subscribe(onNext: { cancels += 1 }).disposed(by: bag)
        try picker.beginUpload("u1", name: "a", contentType: "x/y", size: 1, last: false, limit: 100)
        try picker.appendUploadChunk("u1", offset: 0, data: Data(count: 1))
        try picker.endUpload("u1")
        try picker.beginUpload("u2", name: "b", contentType: "x/y", size: 2, limit: 100)
        try picker.appendUploadChunk("u2", offset: 0, data: Data(count: 1))
        picker.cancelUpload("u2")
        XCTAssertEqual(cancels, 1)
        XCTAssertEqual(picker.bufferedByteCount, 0)
        XCTAssertEqual(code { try picker.appendUploadChunk("u2", offset: 1, data: Data(count: 1)) }, .aborted)
        picker.cancelUpload("u2")  // again: not an error
        XCTAssertEqual(cancels, 2)
        XCTAssertEqual(picks, [])
    }

    func testAbortDropsOnlyThatOwnersUploads() throws {
        picker.allowsMultipleSelection = true
        let alice = NSObject(), bob = NSObject()
        try picker.beginUpload("a", name: "a", contentType: "x/y", size: 2, limit: 100, owner: ObjectIdentifier(alice))
        try picker.beginUpload("b", name: "b", contentType: "x/y", size: 2, limit: 100, owner: ObjectIdentifier(bob))
        try picker.appendUploadChunk("a", offset: 0, data: Data(count: 1))
        log = []
        XCTAssertEqual(picker.abortUploads(owner: ObjectIdentifier(alice)), 1)
        XCTAssertEqual(log, ["fail upload-aborted"])
        XCTAssertEqual(picker.uploadsInProgress, ["b"])
        XCTAssertEqual(picker.abortUploads(owner: ObjectIdentifier(alice)), 0)
        picker.abortAllUploads()
        XCTAssertEqual(picker.uploadsInProgress, [])
        XCTAssertEqual(picker.bufferedByteCount, 0)
    }

    func testAllowedContentTypesTakeMimeTypesWildcardsAndExtensions() throws {
        picker.allowedContentTypes = ["image/*", "text/plain", ".csv"]
        XCTAssertTrue(picker.accepts(name: "a.png", contentType: "image/png"))
        XCTAssertTrue(picker.accepts(name: "a.txt", contentType: "TEXT/PLAIN"))
        XCTAssertTrue(picker.accepts(name: "DATA.CSV", contentType: "application/octet-stream"))
        XCTAssertFalse(picker.accepts(name: "a.pdf", contentType: "application/pdf"))
        XCTAssertEqual(code { try picker.beginUpload("u1", name: "a.pdf", contentType: "application/pdf", size: 1, limit: 100) }, .badValue)
        picker.isEnabled = false
        XCTAssertEqual(code { try picker.beginUpload("u2", name: "a.png", contentType: "image/png", size: 1, limit: 100) }, .disabled)
    }

    func testTooManyUploadsAtOnceAreRefused() throws {
        picker.allowsMultipleSelection = true
        for index in 0..<DocumentPicker.maxConcurrentUploads {
            try picker.beginUpload("u\(index)", name: "f", contentType: "x/y", size: 1, last: false, limit: 100)
        }
        XCTAssertEqual(code { try picker.beginUpload("one-more", name: "f", contentType: "x/y", size: 1, limit: 100) }, .tooManyUploads)
        XCTAssertEqual(code { try picker.beginUpload("u0", name: "f", contentType: "x/y", size: 1, limit: 100) }, .outOfOrder,
                       "begun twice")
        XCTAssertEqual(picker.uploadsInProgress.count, DocumentPicker.maxConcurrentUploads, "begun twice keeps the first")
    }

    func testPropertiesOnTheWire() {
        picker.allowedContentTypes = ["image/*"]
        picker.allowsMultipleSelection = true
        picker.maxFileSize = 1024
        let props = picker.snapshot()
        XCTAssertEqual(picker.kind, "documentPicker")
        XCTAssertEqual(props["allowedContentTypes"], .strings(["image/*"]))
        XCTAssertEqual(props["allowsMultipleSelection"], .bool(true))
        XCTAssertEqual(props["maxFileSize"], .number(1024))
        XCTAssertEqual(DocumentPicker().snapshot()["maxFileSize"], .null)
    }

    func testTheEventsCompleteWhenThePickerGoes() {
        var picker: DocumentPicker? = DocumentPicker()
        var completed = false
        let disposable = picker!.rx.didPickDocuments.subscribe(onCompleted: { completed = true })
        picker = nil
        XCTAssertTrue(completed)
        disposable.dispose()
    }
}
