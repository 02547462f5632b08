import Bindery
import BinderyDemo
import BinderyTesting
import Foundation
import RxWidgets
import XCTest

/// The `upload` scene through its protocol: a text file becomes a row with its first
/// line, a small image a row with a thumbnail, an oversize file a clear error.
final class UploadSceneTests: XCTestCase {
    private func json(_ messages: [ServerMessage]) -> [String] {
        messages.map(MessageEncoder.encode)
    }

    func testATextFileBecomesARowWithItsFirstLine() throws {
        let client = try demoClient("upload")
        XCTAssertEqual(client.widget("status")?.text, "Choose files or drop them here (up to 1.0 MiB each).")
        XCTAssertEqual(json(client.send(text: #"{"type":"uploadBegin","seq":1,"target":"picker","upload":"u1","name":"a.txt","contentType":"text/plain","size":5}"#)),
                       [#"{"type":"patch","ack":1,"changes":[{"target":"status","prop":"text","value":"Uploading a.txt: 0 bytes of 5 bytes"}]}"#])
        XCTAssertEqual(json(client.send(text: #"{"type":"uploadChunk","seq":2,"target":"picker","upload":"u1","offset":0,"data":"aGVsbG8="}"#)),
                       [#"{"type":"patch","ack":2,"changes":[{"target":"progress","prop":"progress","value":1}]}"#])
        XCTAssertEqual(json(client.send(text: #"{"type":"uploadEnd","seq":3,"target":"picker","upload":"u1"}"#)),
                       [#"{"type":"patch","ack":3,"changes":[{"target":"files","prop":"items","value":[{"id":"0.0","canMove":true,"detailText":"text/plain · 5 bytes · “hello”","section":"0","style":"subtitle","text":"a.txt"}]},{"target":"status","prop":"text","value":"Received a.txt."}]}"#])
        let controller = try XCTUnwrap(client.controller(as: UploadViewController.self))
        XCTAssertEqual(controller.files.value.map(\.name), ["a.txt"])
        XCTAssertEqual(controller.picker.bufferedByteCount, 0)
        XCTAssertEqual(client.divergence(), [])
    }

    func testAnOversizeFileIsRefusedBeforeItsBytes() throws {
        let client = try demoClient("upload")
        let answers = json(client.send(text: #"{"type":"uploadBegin","seq":1,"target":"picker","upload":"u1","name":"big.bin","size":2097152}"#))
        XCTAssertEqual(answers, [
            #"{"type":"patch","changes":[{"target":"status","prop":"text","value":"Not uploaded: 'big.bin' is 2 MiB; the largest file allowed is 1 MiB"}]}"#,
            #"{"type":"error","ack":1,"code":"upload-too-large","message":"'big.bin' is 2 MiB; the largest file allowed is 1 MiB","target":"picker"}"#,
        ])
        XCTAssertEqual(try XCTUnwrap(client.controller(as: UploadViewController.self)).files.value, [])
    }

    func testSeveralFilesThroughTheTestClientsUploadHelper() throws {
        let client = try demoClient("upload")
        let text = Data(("first line\n" + String(repeating: "y", count: 70_000)).utf8)
        XCTAssertNil(client.upload(text, name: "long.txt", contentType: "text/plain", to: "picker", last: false).errorCode)
        XCTAssertEqual(client.widget("files")?.rows?.count, 0, "the pick is still open")
        let answer = client.upload(Data("x".utf8), name: "x.csv", contentType: "text/csv", to: "picker")
        XCTAssertEqual(answer.changeDescriptions.last, #"status.text = "Received 2 files.""#)
        let rows = try XCTUnwrap(client.widget("files")?.rows)
        XCTAssertEqual(rows.map { $0["text"] }, [.string("long.txt"), .string("x.csv")])
        XCTAssertEqual(rows.first?["detailText"], .string("text/plain · 68.4 KiB · “first line”"))
        XCTAssertEqual(client.upload(Data(count: (1 << 20) + 1), name: "big", to: "picker").errorCode, "upload-too-large")
        XCTAssertEqual(client.cancelUploads(of: "picker").changeDescriptions, [#"status.text = "Upload cancelled.""#])
        XCTAssertEqual(client.divergence(), [])
    }

    func testAnImageRowHasAThumbnail() throws {
        let client = try demoClient("upload")
        let png = Data([0x89, 0x50, 0x4e, 0x47])
        _ = client.send(text: #"{"type":"uploadBegin","seq":1,"target":"picker","upload":"u1","name":"dot.png","contentType":"image/png","size":4}"#)
        _ = client.send(text: #"{"type":"uploadChunk","seq":2,"target":"picker","upload":"u1","offset":0,"data":"\#(png.base64EncodedString())"}"#)
        _ = client.send(text: #"{"type":"uploadEnd","seq":3,"target":"picker","upload":"u1"}"#)
        XCTAssertEqual(client.widget("files")?.rows?.first?["image"], .string("data:image/png;base64,iVBORw=="))
    }
}
