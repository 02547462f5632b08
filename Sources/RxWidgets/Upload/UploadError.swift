/// Why an upload was refused or stopped. The raw values of ``Code`` are the wire
/// protocol's error codes; the upload's buffer is gone when one is thrown.
public struct UploadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: String, Sendable {
        /// The file (declared size or bytes so far) is over the cap, or the files a
        /// picker holds at once together are.
        case tooLarge = "upload-too-large"
        /// The upload is not in progress any more (cancelled, its connection dropped, its
        /// session ended) or never began.
        case aborted = "upload-aborted"
        /// A chunk at the wrong offset, an upload begun twice, an end before every byte.
        case outOfOrder = "upload-out-of-order"
        /// A content type the picker does not allow, a second file for a single-file
        /// picker, a negative size.
        case badValue = "bad-value"
        /// The picker is disabled.
        case disabled = "disabled"
        /// More uploads at once than a picker takes (``DocumentPicker/maxConcurrentUploads``).
        case tooManyUploads = "rate-limited"
    }

    /// What went wrong.
    public let code: Code
    /// A readable explanation naming the file and the limit.
    public let message: String
    /// The upload's id, when the error concerns one.
    public let upload: String?
    /// The file's name, when known.
    public let fileName: String?

    /// An error.
    public init(_ code: Code, _ message: String, upload: String? = nil, fileName: String? = nil) {
        self.code = code
        self.message = message
        self.upload = upload
        self.fileName = fileName
    }

    /// `code: message`.
    public var description: String { "\(code.rawValue): \(message)" }
}
