import Foundation
import RxWidgets

/// Decodes messages of both directions (see PROTOCOL.md). Client messages, here, are read
/// straight from the JSON text, member by member, without building a tree; server
/// messages and widget snapshots in `MessageDecoder+Server.swift` and
/// `MessageDecoder+Widgets.swift`. Reads what ``MessageEncoder`` writes. Pure.
///
/// For client messages:
/// - Not JSON (or not UTF-8): `bad-json`.
/// - Not an object, `type` missing or not a string, a known field of the wrong type,
///   a duplicate known field, `seq` not an integer in `0...2^53`: `bad-message`.
/// - A `type` other than `event`, `resync` and `bye`: `unknown-type`.
/// Unknown fields are ignored (forward compatibility). The error carries the `seq`
/// when one was read, so the answer can still carry `ack`.
public enum MessageDecoder {
    /// A message that could not be decoded, and its `seq` if one was read.
    public struct Failure: Error, Equatable, Sendable {
        /// What was wrong.
        public let error: ProtocolError
        /// The message's `seq`, when it had a valid one.
        public let seq: Int?
    }

    /// Decodes one client message.
    public static func decode(_ text: String) -> Result<ClientMessage, Failure> {
        // Read in place: `withUTF8` is mutating, and its copy costs a retain and a release.
        if let decoded = text.utf8.withContiguousStorageIfAvailable({ decode($0) }) { return decoded }
        var text = text
        return text.withUTF8 { decode($0) }
    }

    /// Decodes one client message from UTF-8 bytes.
    public static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<ClientMessage, Failure> {
        var fields = Fields()
        var parser = JSONParser(bytes)
        do throws(JSONError) {
            guard parser.peekValueStart() == UInt8(ascii: "{") else {
                // Still check it is JSON at all, to tell bad-json from bad-message.
                _ = try parser.parseValue()
                try parser.expectEnd()
                return .failure(Failure(error: ProtocolError(.badMessage, "a message must be a JSON object"), seq: nil))
            }
            try parser.parseObject(keyBytes: { key, parser throws(JSONError) in
                try fields.read(key: key, parser: &parser)
            })
            try parser.expectEnd()
        } catch {
            return .failure(Failure(error: ProtocolError(.badJSON, "not valid JSON: \(error)"), seq: nil))
        }
        return fields.message()
    }

    /// The fields of a message as read.
    struct Fields {
        /// The message types, read from the bytes: no `String` for the common ones.
        enum Kind {
            case event, resync, bye, rows
            case uploadBegin, uploadChunk, uploadEnd, uploadCancel
            case other(String)

            init(_ name: UnsafeBufferPointer<UInt8>) {
                self = Fields.is(name, "event") ? .event : Fields.is(name, "resync") ? .resync
                    : Fields.is(name, "bye") ? .bye : Fields.is(name, "rows") ? .rows : Kind(upload: name)
            }

            /// The upload steps (rarer: looked at after the common types).
            init(upload name: UnsafeBufferPointer<UInt8>) {
                self = Fields.is(name, "uploadChunk") ? .uploadChunk : Fields.is(name, "uploadBegin") ? .uploadBegin
                    : Fields.is(name, "uploadEnd") ? .uploadEnd : Fields.is(name, "uploadCancel") ? .uploadCancel
                    : .other(String(decoding: name, as: UTF8.self))
            }
        }

        var type: Kind?
        var seq: Int?
        var target: String?
        var event: String?
        var value: WidgetValue?
        var row: String?
        var toSection: String?
        var toIndex: Int?
        var action: Int?
        var from: Int?
        var to: Int?
        /// Nil until an upload field is read: the common messages do not carry (or
        /// destroy) the upload fields.
        var upload: UploadFields?
        var problem: String?
        var seen: UInt32 = 0

        @inline(__always)
        static func `is`(_ key: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
            guard key.count == name.utf8CodeUnitCount else { return false }
            let start = name.utf8Start
            for index in 0..<key.count where key[index] != start[index] { return false }
            return true
        }

        mutating func read(key: UnsafeBufferPointer<UInt8>, parser: inout JSONParser) throws(JSONError) {
            let bit: UInt32
            if Self.is(key, "type") {
                bit = 1
            } else if Self.is(key, "seq") {
                bit = 2
            } else if Self.is(key, "target") {
                bit = 4
            } else if Self.is(key, "event") {
                bit = 8
            } else if Self.is(key, "value") {
                bit = 16
            } else if Self.is(key, "row") {
                bit = 32
            } else if Self.is(key, "toSection") {
                bit = 64
            } else if Self.is(key, "toIndex") {
                bit = 128
            } else if Self.is(key, "action") {
                bit = 256
            } else if Self.is(key, "data") {
                bit = 16384
            } else if Self.is(key, "offset") {
                bit = 8192
            } else if Self.is(key, "upload") {
                bit = 512
            } else if Self.is(key, "name") {
                bit = 1024
            } else if Self.is(key, "size") {
                bit = 4096
            } else if Self.is(key, "contentType") {
                bit = 2048
            } else if Self.is(key, "last") {
                bit = 32768
            } else if Self.is(key, "from") {
                bit = 65536
            } else if Self.is(key, "to") {
                bit = 131072
            } else {
                try parser.skipValue()
                return
            }
            if seen & bit != 0, problem == nil { problem = "duplicate field '\(String(decoding: key, as: UTF8.self))'" }
            seen |= bit
            if bit == 1, let bytes = parser.parsePlainString() {
                type = Kind(bytes)
                return
            }
            let value = try parser.parseValue()
            switch bit {
            case 1:
                if case .string(var string) = value {
                    type = string.withUTF8 { Kind($0) }
                } else {
                    note("'type' must be a string")
                }
            case 2:
                if case .number(let number) = value, number >= 0, number <= 9_007_199_254_740_992, number == number.rounded() {
                    seq = Int(number)
                } else if value != .null {
                    note("'seq' must be a non-negative integer")
                }
            case 4:
                target = string(value, "'target' must be a string")
            case 8:
                event = string(value, "'event' must be a string")
            case 16:
                readValue(value)
            default:
                readRare(bit: bit, value)
            }
        }

        /// Reads `value` (the common keys' last, so inlined in ``read(key:parser:)``).
        @inline(__always)
        private mutating func readValue(_ value: JSONValue) {
            switch value {
            case .null: self.value = .null
            case .bool(let bool): self.value = .bool(bool)
            case .number(let number): self.value = .number(number)
            case .string(let string): self.value = .string(string)
            case .array(let elements):
                var strings: [String] = []
                for element in elements {
                    guard case .string(let string) = element else {
                        note("'value' must be a string, number, boolean, null or list of strings")
                        return
                    }
                    strings.append(string)
                }
                self.value = .strings(strings)
            case .object:
                note("'value' must be a string, number, boolean, null or list of strings")
            }
        }

        mutating func note(_ message: String) {
            if problem == nil { problem = message }
        }

        /// Reads the keys other than the common ones (`type`, `seq`, `target`, `event`,
        /// `value`): out of line, so the echo path's switch stays small.
        @inline(never)
        private mutating func readRare(bit: UInt32, _ value: JSONValue) {
            switch bit {
            case 32:
                row = string(value, "'row' must be a string (a row key)")
            case 64:
                toSection = string(value, "'toSection' must be a string (a section key)")
            case 512, 1024, 2048, 4096, 8192, 16384, 32768:
                readUpload(bit: bit, value)
            case 128, 256, 65536, 131072:
                if case .number(let number) = value, let integer = Int(exactly: number) {
                    switch bit {
                    case 128: toIndex = integer
                    case 256: action = integer
                    case 65536: from = integer
                    default: to = integer
                    }
                } else {
                    let name = [128: "toIndex", 256: "action", 65536: "from"][bit] ?? "to"
                    note("'\(name)' must be an integer")
                }
            default:
                break
            }
        }

        /// Reads an upload field (kept out of line: the common messages have none).
        @inline(never)
        private mutating func readUpload(bit: UInt32, _ value: JSONValue) {
            var upload = self.upload.take() ?? UploadFields()
            switch bit {
            case 512:
                upload.id = string(value, "'upload' must be a string")
            case 1024:
                upload.name = string(value, "'name' must be a string")
            case 2048:
                upload.contentType = string(value, "'contentType' must be a string")
            case 4096:
                upload.size = byteCount(value, "size")
            case 8192:
                upload.offset = byteCount(value, "offset")
            case 16384:
                if let text = string(value, "'data' must be a string") {
                    upload.data = Data(base64Encoded: text)
                    if upload.data == nil { note("'data' must be base64 (RFC 4648, with padding)") }
                }
            default:
                if case .bool(let bool) = value { upload.last = bool } else { note("'last' must be a boolean") }
            }
            self.upload = upload
        }

        /// `value`'s string, or nil after noting `message`.
        private mutating func string(_ value: JSONValue, _ message: String) -> String? {
            if case .string(let string) = value { return string }
            note(message)
            return nil
        }

        /// `value` as a count of bytes (an integer in `0...2^53`), or nil after noting that
        /// field `name` must be one.
        private mutating func byteCount(_ value: JSONValue, _ name: String) -> Int? {
            if case .number(let number) = value, number >= 0, number <= 9_007_199_254_740_992, let integer = Int(exactly: number) {
                return integer
            }
            note("'\(name)' must be a non-negative integer (bytes)")
            return nil
        }

        /// The message the fields make. Mutating: the strings and the value are moved
        /// out (the fields are dropped right after), not copied.
        mutating func message() -> Result<ClientMessage, Failure> {
            func fail(_ code: ErrorCode, _ message: String) -> Result<ClientMessage, Failure> {
                .failure(Failure(error: ProtocolError(code, message, target: target), seq: seq))
            }
            if let problem { return fail(.badMessage, problem) }
            guard let type else { return fail(.badMessage, "a message needs a 'type'") }
            switch type {
            case .event:
                guard case .some = target else { return fail(.badMessage, "an event needs a 'target' (a widget id)") }
                guard let event = event.take() else { return fail(.badMessage, "an event needs an 'event' (a control event name)") }
                return .success(.event(EventMessage(seq: seq, target: target.take()!, event: event, value: value.take(), row: row.take(),
                                                    toSection: toSection.take(), toIndex: toIndex, action: action)))
            case .resync:
                return .success(.resync(seq: seq))
            case .bye:
                return .success(.bye)
            case .rows:
                guard let target else { return fail(.badMessage, "a rows request needs a 'target' (a table's id)") }
                guard let from, let to else { return fail(.badMessage, "a rows request needs 'from' and 'to' (row indices)") }
                return .success(.rows(RowsRequest(seq: seq, target: target, from: from, to: to)))
            case .uploadBegin, .uploadChunk, .uploadEnd, .uploadCancel:
                guard let target else { return fail(.badMessage, "an upload message needs a 'target' (a picker's id)") }
                let upload = self.upload ?? UploadFields()
                let step: UploadMessage.Step
                switch upload.step(for: type) {
                case .success(let value): step = value
                case .failure(let problem): return fail(.badMessage, problem.message)
                }
                if upload.id == nil, step != .cancel { return fail(.badMessage, "an upload message needs an 'upload' (its id)") }
                return .success(.upload(UploadMessage(seq: seq, target: target, upload: upload.id, step: step)))
            case .other(let type):
                return fail(.unknownType, "unknown message type '\(type)' (known: event, resync, bye, rows, uploadBegin, uploadChunk, uploadEnd, uploadCancel)")
            }
        }
    }
}
