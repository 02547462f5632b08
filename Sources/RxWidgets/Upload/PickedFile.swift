import Foundation

/// A file the user picked (or dropped) in the browser, uploaded whole: what
/// `UIDocumentPickerViewController` hands its delegate as a URL, here the bytes themselves
/// (there is no file on the server: nothing is left behind).
public struct PickedFile: Equatable, Sendable {
    /// The file's name as the browser gave it (`report.pdf`), without any path.
    public let name: String
    /// Its MIME type as the browser gave it (`image/png`), or `application/octet-stream`.
    public let contentType: String
    /// Its contents.
    public let data: Data

    /// A picked file.
    public init(name: String, contentType: String, data: Data) {
        self.name = name
        self.contentType = contentType
        self.data = data
    }

    /// The size in bytes.
    public var size: Int { data.count }
}
