import BinderyProtocol
import BinderyRuntime
import Redis

/// One entry of a shared scene's inbox or outbox as `XREAD` returned it: its id and its
/// fields. A field is found by a scan of the few the entry has (no dictionary hashed and
/// built per entry) and becomes a `String` only when it is read, so an edge does not
/// decode the answers meant for other processes. Pure.
package struct SharedSceneStreamEntry: Sendable {
    /// The entry's stream id (`<ms>-<seq>`).
    package let id: String
    /// Field names and values, alternating, as Redis sent them (every one a string).
    private let list: [RESPValue]

    /// nil unless every field name and value is a string (as Redis always sends).
    init?(id: String, list: [RESPValue]) {
        for element in list {
            switch element {
            case .bulkString(_?), .simpleString: continue
            default: return nil
            }
        }
        self.id = id
        self.list = list
    }

    /// An entry made of `fields` (names and values), as Redis would send them: for streams
    /// kept elsewhere than in Redis (``InMemorySharedSceneStreams``).
    package init(id: String, fields: [(name: String, value: String)]) {
        self.id = id
        var list: [RESPValue] = []
        list.reserveCapacity(fields.count * 2)
        for field in fields {
            list.append(.bulkString(Array(field.name.utf8)))
            list.append(.bulkString(Array(field.value.utf8)))
        }
        self.list = list
    }

    /// The value of `field` (the last one when Redis sent it twice), or nil.
    package subscript(field: String) -> String? {
        value(of: field)?.string
    }

    /// The bytes of `field` as Redis sent them (no `String` made), or nil.
    func bytes(_ field: String) -> [UInt8]? {
        guard let value = value(of: field) else { return nil }
        if case .bulkString(let bytes?) = value { return bytes }
        return value.string.map { Array($0.utf8) }
    }

    /// Whether `field` is there and is `text`, compared without making a `String`.
    package func field(_ field: String, is text: String) -> Bool {
        guard let value = value(of: field) else { return false }
        if case .bulkString(let bytes?) = value { return Self.equal(bytes, text) }
        return value.string == text
    }

    private func value(of field: String) -> RESPValue? {
        var index = list.count & ~1
        while index >= 2 {
            index -= 2
            if Self.matches(list[index], field) { return list[index + 1] }
        }
        return nil
    }

    private static func matches(_ name: RESPValue, _ field: String) -> Bool {
        if case .bulkString(let bytes?) = name { return equal(bytes, field) }
        return name.string == field
    }

    /// Whether `bytes` are `text`'s UTF-8, lengths first (field names are one letter).
    private static func equal(_ bytes: [UInt8], _ text: String) -> Bool {
        let utf8 = text.utf8
        guard bytes.count == utf8.count else { return false }
        if bytes.count == 1 { return bytes[0] == utf8.first }
        return bytes.elementsEqual(utf8)
    }

    /// The entries of an `XREAD` reply for one stream; empty for a timeout (null). An
    /// entry that is not an id and a list of strings is left out.
    package static func entries(in reply: RESPValue) -> [SharedSceneStreamEntry] {
        guard let streams = reply.array, let stream = streams.first?.array, stream.count == 2,
              let items = stream[1].array else { return [] }
        var entries: [SharedSceneStreamEntry] = []
        entries.reserveCapacity(items.count)
        for item in items {
            guard let pair = item.array, pair.count == 2, let id = pair[0].string,
                  let entry = SharedSceneStreamEntry(id: id, list: pair[1].array ?? []) else { continue }
            entries.append(entry)
        }
        return entries
    }
}
