import Bindery
import BinderyTesting
import Foundation
import RxCore
import RxTesting
import RxWidgets
import XCTest

/// A picker whose progress and picks go to labels (what the answers carry).
final class UploadTestViewController: ViewController, Scene {
    let bag = DisposeBag()
    let picker = DocumentPicker()
    let status = Label()
    let button = Button()

    var sceneWidgets: [(id: String, widget: View)] {
        [("picker", picker), ("status", status), ("button", button)]
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        picker.maxFileSize = 64
        picker.allowsMultipleSelection = true
        picker.rx.progress.map { "\($0.fileName) \($0.completedUnitCount)/\($0.totalUnitCount)" }
            .bind(to: status.rx.text).disposed(by: bag)
        picker.rx.didPickDocuments
            .map { $0.map { "\($0.name):\(String(decoding: $0.data, as: UTF8.self))" }.joined(separator: " ") }
            .bind(to: status.rx.text).disposed(by: bag)
        picker.rx.uploadDidFail.map { "failed: \($0.code.rawValue)" }.bind(to: status.rx.text).disposed(by: bag)
    }
}

/// The upload messages end to end through a session: decoding, one answer per message
/// with its ack, the caps (per picker and server-wide), chunk order, and that an upload's
/// bytes are freed on error, cancel, disconnect and the session's end.
final class UploadProtocolTests: XCTestCase {
    private var scheduler: TestScheduler!
    private var store: SessionStore!
    private var session: Session!

    override func setUpWithError() throws {
        try super.setUpWithError()
        scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        let registry = SceneRegistry()
        registry.register("upload", title: "Upload") { UploadTestViewController() }
        var configuration = SessionStore.Configuration(gracePeriod: .seconds(30), strictBindingErrors: false)
        configuration.maxUploadSize = 48
        store = SessionStore(registry: registry, configuration: configuration, scheduler: scheduler, flushScheduler: scheduler)
        session = try store.createSession(scene: "upload")
    }

    private var picker: DocumentPicker { session.widget(withID: "picker") as! DocumentPicker }

    private func send(_ json: String, from client: SessionClient? = nil) -> String {
        MessageEncoder.encode(session.handle(text: json, from: client)!)
    }

    private func chunk(_ seq: Int, _ upload: String, offset: Int, _ text: String) -> String {
        #"{"type":"uploadChunk","seq":\#(seq),"target":"picker","upload":"\#(upload)","offset":\#(offset),"data":"\#(Data(text.utf8).base64EncodedString())"}"#
    }

    func testDecodingTheUploadMessages() {
        XCTAssertEqual(try MessageDecoder.decode(#"{"type":"uploadBegin","seq":1,"target":"p","upload":"u","name":"a.txt","size":3}"#).get(),
                       .upload(UploadMessage(seq: 1, target: "p", upload: "u",
                                             step: .begin(name: "a.txt", contentType: "application/octet-stream", size: 3, last: true))))
        XCTAssertEqual(try MessageDecoder.decode(#"{"type":"uploadChunk","target":"p","upload":"u","offset":0,"data":"aGk="}"#).get(),
                       .upload(UploadMessage(target: "p", upload: "u", step: .chunk(offset: 0, data: Data("hi".utf8)))))
        XCTAssertEqual(try MessageDecoder.decode(#"{"type":"uploadCancel","target":"p"}"#).get(),
                       .upload(UploadMessage(target: "p", upload: nil, step: .cancel)))
        func failure(_ json: String) -> String {
            guard case .failure(let failure) = MessageDecoder.decode(json) else { return "decoded" }
            return "\(failure.error.code.rawValue): \(failure.error.message)"
        }
        XCTAssertEqual(failure(#"{"type":"uploadChunk","target":"p","upload":"u","offset":0,"data":"not base64!"}"#),
                       "bad-message: 'data' must be base64 (RFC 4648, with padding)")
        XCTAssertEqual(failure(#"{"type":"uploadBegin","target":"p","upload":"u","name":"a","size":-1}"#),
                       "bad-message: 'size' must be a non-negative integer (bytes)")
        XCTAssertEqual(failure(#"{"type":"uploadBegin","target":"p","upload":"u","size":1}"#),
                       "bad-message: uploadBegin needs a 'name' (the file's)")
        XCTAssertEqual(failure(#"{"type":"uploadEnd","target":"p"}"#), "bad-message: an upload message needs an 'upload' (its id)")
        XCTAssertEqual(failure(#"{"type":"uploadEnd","upload":"u","upload":"v","target":"p"}"#), "bad-message: duplicate field 'upload'")
        XCTAssertEqual(failure(#"{"type":"uploadEnd","upload":"u"}"#), "bad-message: an upload message needs a 'target' (a picker's id)")
    }

    func testBeginChunksEndAreAnsweredOneByOneWithTheirAcks() {
        XCTAssertEqual(send(#"{"type":"uploadBegin","seq":1,"target":"picker","upload":"u1","name":"a.txt","contentType":"text/plain","size":5}"#),
                       #"{"type":"patch","ack":1,"changes":[{"target":"status","prop":"text","value":"a.txt 0/5"}]}"#)
        XCTAssertEqual(send(chunk(2, "u1", offset: 0, "hel")),
                       #"{"type":"patch","ack":2,"changes":[{"target":"status","prop":"text","value":"a.txt 3/5"}]}"#)
        XCTAssertEqual(send(chunk(3, "u1", offset: 3, "lo")),
                       #"{"type":"patch","ack":3,"changes":[{"target":"status","prop":"text","value":"a.txt 5/5"}]}"#)
        XCTAssertEqual(send(#"{"type":"uploadEnd","seq":4,"target":"picker","upload":"u1"}"#),
                       #"{"type":"patch","ack":4,"changes":[{"target":"status","prop":"text","value":"a.txt:hello"}]}"#)
        XCTAssertEqual(picker.bufferedByteCount, 0)
    }

    func testOversizeIsRefusedAtTheDeclaredSizeWithTheWidgetsAndTheServersCap() {
        // The picker's maxFileSize is 64, the server's 48: 48 applies.
        let answer = send(#"{"type":"uploadBegin","seq":1,"target":"picker","upload":"u1","name":"big","size":49}"#)
        XCTAssertEqual(answer, #"{"type":"error","ack":1,"code":"upload-too-large","message":"'big' is 49 bytes; the largest file allowed is 48 bytes","target":"picker"}"#)
        XCTAssertEqual(picker.uploadsInProgress, [])
        XCTAssertEqual(store.metrics.errors[.uploadTooLarge], 1)
        // The error label the binding set went to the sender first, in a patch without ack.
        let client = session.connect { _ in }
        var seen: [String] = []
        let watcher = session.connect { seen.append(MessageEncoder.encode($0)) }
        _ = send(#"{"type":"uploadBegin","seq":2,"target":"picker","upload":"ok","name":"ok","size":1}"#, from: client)
        seen = []
        _ = send(#"{"type":"uploadBegin","seq":3,"target":"picker","upload":"u2","name":"big","size":1000}"#, from: client)
        XCTAssertEqual(seen, [#"{"type":"patch","changes":[{"target":"status","prop":"text","value":"failed: upload-too-large"}]}"#],
                       "others see the binding's change too")
        watcher.disconnect()
    }

    func testARunningSizeOverTheDeclaredSizeIsRefusedAndTheUploadDropped() {
        _ = send(#"{"type":"uploadBegin","seq":1,"target":"picker","upload":"u1","name":"a","size":2}"#)
        XCTAssertTrue(send(chunk(2, "u1", offset: 0, "abc")).contains(#""code":"upload-too-large""#))
        XCTAssertEqual(picker.bufferedByteCount, 0)
        XCTAssertTrue(send(chunk(3, "u1", offset: 3, "d")).contains(#""code":"upload-aborted""#))
    }

    func testABadChunkOrderIsAClearErrorAndEndsTheUpload() {
        _ = send(#"{"type":"uploadBegin","seq":1,"target":"picker","upload":"u1","name":"a","size":4}"#)
        XCTAssertEqual(send(chunk(2, "u1", offset: 2, "cd")),
                       #"{"type":"error","ack":2,"code":"upload-out-of-order","message":"upload 'u1': chunk at offset 2, expected 0","target":"picker"}"#)
        XCTAssertEqual(picker.uploadsInProgress, [])
        XCTAssertTrue(send(#"{"type":"uploadEnd","seq":3,"target":"picker","upload":"u1"}"#).contains(#""code":"upload-aborted""#))
    }

    func testUploadsToOtherWidgetsOrUnknownOnesAreRefused() {
        XCTAssertTrue(send(#"{"type":"uploadBegin","seq":1,"target":"status","upload":"u","name":"a","size":1}"#)
            .contains(#""code":"unknown-event","message":"label 'status' takes no uploads (only a documentPicker does)""#))
        XCTAssertTrue(send(#"{"type":"uploadBegin","seq":2,"target":"nope","upload":"u","name":"a","size":1}"#)
            .contains(#""code":"unknown-target""#))
        let event = send(#"{"type":"event","seq":3,"target":"picker","event":"touchUpInside"}"#)
        XCTAssertTrue(event.contains(#""code":"unknown-event""#), event)
    }

    func testCancelFreesTheBytes() {
        _ = send(#"{"type":"uploadBegin","seq":1,"target":"picker","upload":"u1","name":"a","size":4}"#)
        _ = send(chunk(2, "u1", offset: 0, "ab"))
        XCTAssertEqual(picker.bufferedByteCount, 2)
        XCTAssertEqual(send(#"{"type":"uploadCancel","seq":3,"target":"picker","upload":"u1"}"#), #"{"type":"patch","ack":3,"changes":[]}"#)
        XCTAssertEqual(picker.bufferedByteCount, 0)
        XCTAssertEqual(picker.uploadsInProgress, [])
    }

    func testADisconnectAbortsThatConnectionsUploadsOnly() {
        var answers: [String] = []
        let socket = session.connect { answers.append(MessageEncoder.encode($0)) }
        socket.receive(text: #"{"type":"uploadBegin","seq":1,"target":"picker","upload":"u1","name":"a","size":4,"last":false}"#)
        socket.receive(text: chunk(2, "u1", offset: 0, "ab"))
        _ = send(#"{"type":"uploadBegin","seq":3,"target":"picker","upload":"http","name":"b","size":1}"#)  // another's
        XCTAssertEqual(picker.uploadsInProgress, ["http", "u1"])
        XCTAssertEqual(answers.count, 3, "one answer per message (and the other's change)")
        socket.disconnect()
        XCTAssertEqual(picker.uploadsInProgress, ["http"])
        XCTAssertEqual(picker.bufferedByteCount, 0)
        XCTAssertEqual((session.widget(withID: "status") as? Label)?.text, "failed: upload-aborted")
        // A resumed client that goes on is told the upload is gone.
        let resumed = session.connect { answers.append(MessageEncoder.encode($0)) }
        resumed.receive(text: chunk(4, "u1", offset: 2, "cd"))
        XCTAssertTrue(answers.last!.contains(#""ack":4,"code":"upload-aborted""#), answers.last!)
    }

    func testTheSessionsEndReleasesThePickerAndItsBytes() throws {
        _ = send(#"{"type":"uploadBegin","seq":1,"target":"picker","upload":"u1","name":"a","size":4}"#)
        _ = send(chunk(2, "u1", offset: 0, "ab"))
        weak var weakPicker = picker
        var kept: DocumentPicker? = picker  // as if something else held it
        store.end(session, reason: "deleted")
        XCTAssertEqual(kept?.uploadsInProgress, [], "its uploads were dropped with the session")
        XCTAssertEqual(kept?.bufferedByteCount, 0)
        kept = nil
        XCTAssertNil(weakPicker, "nothing holds the picker (or its bytes) after the session")
        XCTAssertTrue(send(chunk(3, "u1", offset: 2, "cd")).contains(#""code":"upload-aborted""#))
    }

    func testAGraceExpiryFreesAnAbandonedUpload() throws {
        let socket = session.connect { _ in }
        socket.receive(text: #"{"type":"uploadBegin","seq":1,"target":"picker","upload":"u1","name":"a","size":4}"#)
        socket.receive(text: chunk(2, "u1", offset: 0, "ab"))
        weak var weakPicker = picker
        socket.disconnect()
        scheduler.advanceTo(31)
        XCTAssertTrue(session.isEnded)
        XCTAssertNil(weakPicker)
    }

    func testUploadsDoNotBlockOtherSessionsEvents() throws {
        // Chunks are handled one message at a time on the loop: another session's event
        // between two chunks is answered at once, with its own ack.
        let other = try store.createSession(scene: "upload")
        _ = send(#"{"type":"uploadBegin","seq":1,"target":"picker","upload":"u1","name":"a","size":4}"#)
        _ = send(chunk(2, "u1", offset: 0, "ab"))
        XCTAssertEqual(MessageEncoder.encode(other.handle(text: #"{"type":"uploadCancel","seq":7,"target":"picker"}"#)!),
                       #"{"type":"patch","ack":7,"changes":[]}"#)
        XCTAssertEqual(picker.bufferedByteCount, 2, "the other session's cancel is its own")
        XCTAssertTrue(send(chunk(3, "u1", offset: 2, "cd")).contains(#""ack":3"#))
    }
}

/// A 5 MiB file through the session as the browser sends it (32 KiB base64 chunks in JSON
/// text messages) against appending the same bytes straight to the picker (what binary
/// frames would cost at best): prints both, checks the bytes arrive whole.
final class UploadThroughputTests: XCTestCase {
    func testFiveMebibytesInJSONChunks() throws {
        let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        let registry = SceneRegistry()
        registry.register("upload", title: "Upload") { UploadTestViewController() }
        var configuration = SessionStore.Configuration(strictBindingErrors: false)
        configuration.maxUploadSize = 8 << 20
        let store = SessionStore(registry: registry, configuration: configuration, scheduler: scheduler, flushScheduler: scheduler)
        let session = try store.createSession(scene: "upload")
        let picker = try XCTUnwrap(session.widget(withID: "picker") as? DocumentPicker)
        picker.maxFileSize = nil
        var received: [PickedFile] = []
        let bag = DisposeBag()
        picker.rx.didPickDocuments.subscribe(onNext: { received += $0 }).disposed(by: bag)

        let size = 5 << 20, chunk = 32 << 10
        var file = Data(count: size)
        for index in stride(from: 0, to: size, by: 4096) { file[index] = UInt8(truncatingIfNeeded: index >> 12) }
        let messages = stride(from: 0, to: size, by: chunk).map { offset in
            #"{"type":"uploadChunk","seq":\#(offset / chunk + 2),"target":"picker","upload":"u1","offset":\#(offset),"data":"\#(file[offset..<min(size, offset + chunk)].base64EncodedString())"}"#
        }
        let wireBytes = messages.reduce(0) { $0 + $1.utf8.count }

        let start = Date()
        _ = session.handle(text: #"{"type":"uploadBegin","seq":1,"target":"picker","upload":"u1","name":"five.bin","size":\#(size)}"#)
        for message in messages {
            guard case .patch = session.handle(text: message)! else { return XCTFail("a chunk was refused") }
        }
        _ = session.handle(text: #"{"type":"uploadEnd","seq":999,"target":"picker","upload":"u1"}"#)
        let json = Date().timeIntervalSince(start)
        XCTAssertEqual(received.first?.data, file)

        let direct = Date()
        try picker.beginUpload("u2", name: "five.bin", contentType: "x/y", size: size, limit: 8 << 20)
        for offset in stride(from: 0, to: size, by: chunk) {
            try picker.appendUploadChunk("u2", offset: offset, data: file[offset..<min(size, offset + chunk)])
        }
        try picker.endUpload("u2")
        let raw = Date().timeIntervalSince(direct)
        XCTAssertEqual(received.last?.data, file)
        print(String(format: "5 MiB upload: %d JSON chunks, %.2f MiB on the wire (%.0f%%), %.1f ms through the session; raw appends %.1f ms",
                     messages.count, Double(wireBytes) / Double(1 << 20), 100 * Double(wireBytes) / Double(size),
                     json * 1000, raw * 1000))
    }
}
