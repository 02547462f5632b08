import Foundation

/// One step of a file upload to a `documentPicker` (see PROTOCOL.md, "Uploads"):
/// `uploadBegin` → `uploadChunk`… → `uploadEnd`, or `uploadCancel`.
///
/// ```json
/// {"type":"uploadBegin","seq":1,"target":"picker","upload":"u1","name":"a.txt","contentType":"text/plain","size":5,"last":true}
/// {"type":"uploadChunk","seq":2,"target":"picker","upload":"u1","offset":0,"data":"aGVsbG8="}
/// {"type":"uploadEnd","seq":3,"target":"picker","upload":"u1"}
/// ```
public struct UploadMessage: Equatable, Sendable {
    /// What this step does.
    public enum Step: Equatable, Sendable {
        /// A file of `size` bytes begins (checked against the caps before any byte);
        /// `last`: the pick's last file (default true).
        case begin(name: String, contentType: String, size: Int, last: Bool)
        /// `data` goes at `offset` (the bytes sent so far).
        case chunk(offset: Int, data: Data)
        /// The file is complete.
        case end
        /// The user cancelled (`upload` nil: every upload of this picker).
        case cancel
    }

    /// The client's sequence number, echoed as `ack`.
    public var seq: Int?
    /// The picker's widget id.
    public var target: String
    /// The upload's id (the client's choice, unique per picker while it runs).
    public var upload: String?
    /// The step.
    public var step: Step

    /// An upload message.
    public init(seq: Int? = nil, target: String, upload: String?, step: Step) {
        self.seq = seq
        self.target = target
        self.upload = upload
        self.step = step
    }

    /// The wire `type`.
    public var type: String {
        switch step {
        case .begin: return "uploadBegin"
        case .chunk: return "uploadChunk"
        case .end: return "uploadEnd"
        case .cancel: return "uploadCancel"
        }
    }
}
