import Foundation

extension MessageDecoder {
    /// A message the decoder could not use, as text (for `bad-message`).
    struct Problem: Error {
        let message: String
    }

    /// The upload messages' fields (`upload`, `name`, `contentType`, `size`, `offset`,
    /// `data`, `last`), as the decoder's field reader (``Fields``) read them.
    struct UploadFields {
        var id: String?
        var name: String?
        var contentType: String?
        var size: Int?
        var offset: Int?
        var data: Data?
        var last: Bool?

        /// The step a message of `kind` describes, or what it lacks.
        func step(for kind: Fields.Kind) -> Result<UploadMessage.Step, Problem> {
            switch kind {
            case .uploadBegin:
                guard let name else { return .failure(Problem(message: "uploadBegin needs a 'name' (the file's)")) }
                guard let size else { return .failure(Problem(message: "uploadBegin needs a 'size' (bytes)")) }
                let type = contentType.map { $0.isEmpty ? "application/octet-stream" : $0 } ?? "application/octet-stream"
                return .success(.begin(name: name, contentType: type, size: size, last: last ?? true))
            case .uploadChunk:
                guard let offset else { return .failure(Problem(message: "uploadChunk needs an 'offset' (bytes sent before it)")) }
                guard let data else { return .failure(Problem(message: "uploadChunk needs 'data' (base64)")) }
                return .success(.chunk(offset: offset, data: data))
            case .uploadEnd:
                return .success(.end)
            default:
                return .success(.cancel)
            }
        }
    }
}
