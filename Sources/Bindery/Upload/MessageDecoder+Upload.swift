import Foundation

extension MessageDecoder {
    /// A message the decoder could not use, as text (for `bad-message`).
    struct Problem: Error {
        let message: String
    }

    /// The upload messages' fields (`upload`, `name`, `contentType`, `size`, `offset`,
    /// `data`, `last`), read by the decoder's fields reader after its own.
    struct UploadFields {
        var id: String?
        var name: String?
        var contentType: String?
        var size: Int?
        var offset: Int?
        var data: Data?
        var last: Bool?

        /// The decoder's duplicate-check bit for an upload field, or nil for another key.
        /// (No table: this runs for every key an event does not know, and allocates nothing.)
        static func bit(for key: UnsafeBufferPointer<UInt8>) -> UInt16? {
            if Self.is(key, "data") { return 16384 }
            if Self.is(key, "offset") { return 8192 }
            if Self.is(key, "upload") { return 512 }
            if Self.is(key, "name") { return 1024 }
            if Self.is(key, "size") { return 4096 }
            if Self.is(key, "contentType") { return 2048 }
            if Self.is(key, "last") { return 32768 }
            return nil
        }

        private static func `is`(_ key: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
            key.count == name.utf8CodeUnitCount && key.elementsEqual(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        }

        /// Reads the field of `bit`; a problem's text when its value has the wrong type.
        mutating func read(bit: UInt16, _ value: JSONValue) -> String? {
            func string(_ field: String) -> (String?, String?) {
                if case .string(let string) = value { return (string, nil) }
                return (nil, "'\(field)' must be a string")
            }
            func count(_ field: String) -> (Int?, String?) {
                if case .number(let number) = value, number >= 0, number <= 9_007_199_254_740_992, let integer = Int(exactly: number) {
                    return (integer, nil)
                }
                return (nil, "'\(field)' must be a non-negative integer (bytes)")
            }
            var problem: String?
            switch bit {
            case 512: (id, problem) = string("upload")
            case 1024: (name, problem) = string("name")
            case 2048: (contentType, problem) = string("contentType")
            case 4096: (size, problem) = count("size")
            case 8192: (offset, problem) = count("offset")
            case 16384:
                var text: String?
                (text, problem) = string("data")
                if let text {
                    data = Data(base64Encoded: text)
                    if data == nil { problem = "'data' must be base64 (RFC 4648, with padding)" }
                }
            default:
                if case .bool(let bool) = value { last = bool } else { problem = "'last' must be a boolean" }
            }
            return problem
        }

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
