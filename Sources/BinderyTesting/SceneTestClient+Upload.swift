import Bindery
import Foundation

extension SceneTestClient {
    /// Uploads `data` as a file named `name` to the document picker `target`, as the
    /// browser client does: `uploadBegin`, `uploadChunk`s of `chunkSize` bytes (base64),
    /// `uploadEnd`. Returns the first error, or the answer to `uploadEnd` (what the
    /// bindings did with the pick). `last: false` leaves the pick open for more files.
    @discardableResult
    public func upload(_ data: Data, name: String, contentType: String = "application/octet-stream", to target: String,
                       chunkSize: Int = 32 << 10, last: Bool = true) -> SceneTestAnswer {
        let id = "test-\(UUID().uuidString)"
        var steps = [begin(target: target, id: id, name: name, contentType: contentType, size: data.count, last: last)]
        for offset in stride(from: 0, to: data.count, by: max(1, chunkSize)) {
            let piece = data[data.startIndex + offset..<data.startIndex + min(data.count, offset + chunkSize)]
            steps.append(#"{"type":"uploadChunk","target":\#(json(target)),"upload":"\#(id)","offset":\#(offset),"data":"\#(piece.base64EncodedString())"}"#)
        }
        steps.append(#"{"type":"uploadEnd","target":\#(json(target)),"upload":"\#(id)"}"#)
        var answer = SceneTestAnswer.noAnswer
        for step in steps {
            // Each message is answered exactly once, last among what it brought.
            switch send(text: step).last {
            case .patch(let patch)?: answer = .patch(patch)
            case .error(let error)?: return .error(error)
            default: return .noAnswer
            }
        }
        return answer
    }

    /// Cancels the picker's uploads (`uploadCancel`), as the browser's Cancel does.
    @discardableResult
    public func cancelUploads(of target: String) -> SceneTestAnswer {
        switch send(text: #"{"type":"uploadCancel","target":\#(json(target))}"#).last {
        case .patch(let patch)?: return .patch(patch)
        case .error(let error)?: return .error(error)
        default: return .noAnswer
        }
    }

    private func begin(target: String, id: String, name: String, contentType: String, size: Int, last: Bool) -> String {
        #"{"type":"uploadBegin","target":\#(json(target)),"upload":"\#(id)","name":\#(json(name)),"contentType":\#(json(contentType)),"size":\#(size),"last":\#(last)}"#
    }

    private func json(_ string: String) -> String {
        var writer = JSONWriter()
        writer.string(string)
        return writer.text
    }
}
