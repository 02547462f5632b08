import BinderyProtocol
import BinderyRuntime
#if canImport(Glibc)
import Glibc
#endif
import RxWidgets

/// How a shared scene's events, patches and widget snapshots travel through Redis: the
/// wire protocol's own JSON (events as a client sends them, patches and widgets as a
/// client receives them), so nothing new is invented and the mirror re-sends exactly
/// what the owner produced.
///
/// Decoding is typed but lossy where JSON is: a colour or a date comes back as the
/// string it was sent as. That is enough for a mirror, whose only job is to encode the
/// same JSON again. Pure.
package enum SharedSceneWire {
    /// Why a stream entry could not be read.
    package struct DecodeError: Error, CustomStringConvertible {
        let reason: String
        package var description: String { "shared scene: bad stream entry: \(reason)" }
    }

    // MARK: - Events (into `scene:<name>:in`)

    /// `event` as the JSON a client would have sent.
    package static func encode(_ event: EventMessage) -> String {
        var writer = JSONWriter(capacity: 96)
        writer.raw("{\"type\":\"event\"")
        if let seq = event.seq {
            writer.raw(",\"seq\":")
            writer.number(seq)
        }
        writer.raw(",\"target\":")
        writer.string(event.target)
        writer.raw(",\"event\":")
        writer.string(event.event)
        if let value = event.value {
            writer.raw(",\"value\":")
            writer.widgetValue(value)
        }
        if let row = event.row {
            writer.raw(",\"row\":")
            writer.string(row)
        }
        if let toSection = event.toSection {
            writer.raw(",\"toSection\":")
            writer.string(toSection)
        }
        if let toIndex = event.toIndex {
            writer.raw(",\"toIndex\":")
            writer.number(toIndex)
        }
        if let action = event.action {
            writer.raw(",\"action\":")
            writer.number(action)
        }
        writer.raw("}")
        return writer.text
    }

    /// The event in `json` (decoded exactly as a client's).
    package static func decodeEvent(_ json: String) throws(DecodeError) -> EventMessage {
        guard case .success(.event(let event)) = MessageDecoder.decode(json) else {
            throw DecodeError(reason: "not an event: \(json.prefix(80))")
        }
        return event
    }

    // MARK: - Widgets (the snapshot)

    /// `widgets` as a JSON array, as in a `scene` message.
    package static func encode(_ widgets: [WidgetSnapshot]) -> String {
        var writer = JSONWriter(capacity: 256)
        writer.raw("[")
        for (index, widget) in widgets.enumerated() {
            if index > 0 { writer.raw(",") }
            MessageEncoder.write(widget, to: &writer)
        }
        writer.raw("]")
        return writer.text
    }

    static func decodeWidgets(_ json: String) throws(DecodeError) -> [WidgetSnapshot] {
        guard let elements = try parse(json).arrayValue else { throw DecodeError(reason: "widgets are not an array") }
        var widgets: [WidgetSnapshot] = []
        widgets.reserveCapacity(elements.count)
        for element in elements { widgets.append(try widget(element)) }
        return widgets
    }

    // MARK: - Answers and patches (out of `scene:<name>:out`)

    /// A `patch` or `error` message.
    package static func encode(_ message: ServerMessage) -> String {
        MessageEncoder.encode(message)
    }

    package static func decodeMessage(_ json: String) throws(DecodeError) -> ServerMessage {
        if let patch = decodePlainPatch(json) { return .patch(patch) }
        return try decodeMessageThroughTree(json)
    }

    /// ``decodeMessage(_:)`` of UTF-8 JSON as a stream entry holds it (a `String` is made
    /// only when it is not a plain patch).
    package static func decodeMessage(utf8 json: [UInt8]) throws(DecodeError) -> ServerMessage {
        if let patch = json.withUnsafeBufferPointer({ decodePlainPatch(utf8: $0) }) { return .patch(patch) }
        return try decodeMessageThroughTree(String(decoding: json, as: UTF8.self))
    }

    /// ``decodeMessage(_:)`` through a JSON tree, for any message (the general case).
    package static func decodeMessageThroughTree(_ json: String) throws(DecodeError) -> ServerMessage {
        let value = try parse(json)
        switch value["type"]?.stringValue {
        case "patch":
            return .patch(try patch(value))
        case "error":
            let ack = value["ack"]?.numberValue.map { Int($0) }
            guard let codeText = value["code"]?.stringValue, let code = ErrorCode(rawValue: codeText) else {
                throw DecodeError(reason: "error without a known code")
            }
            return .error(ErrorMessage(ack: ack, code: code, message: value["message"]?.stringValue ?? "",
                                       target: value["target"]?.stringValue))
        default:
            throw DecodeError(reason: "not a patch or error: \(json.prefix(80))")
        }
    }

    /// The patch in `json` read straight into a ``PatchMessage``, with no JSON tree, when
    /// it is what nearly every event makes: value changes whose values are strings,
    /// numbers, booleans or null. nil for anything else (removals, additions, list
    /// operations, arrays, not a patch), which ``decodeMessageThroughTree(_:)`` reads.
    package static func decodePlainPatch(_ json: String) -> PatchMessage? {
        var json = json
        return json.withUTF8 { decodePlainPatch(utf8: $0) }
    }

    /// ``decodePlainPatch(_:)`` of UTF-8 bytes.
    package static func decodePlainPatch(utf8 bytes: UnsafeBufferPointer<UInt8>) -> PatchMessage? {
        var parser = JSONParser(bytes)
        var isPatch = false
        var ack: Int?
        var changes: [PatchChange] = []
        do throws(JSONError) {
            try parser.parseObject(keyBytes: { key, parser throws(JSONError) in
                if isKey(key, "type") {
                    isPatch = try parser.parseString() == "patch"
                } else if isKey(key, "ack") {
                    guard let number = Int(exactly: try parser.parseNumber()) else { throw parser.error("ack") }
                    ack = number
                } else if isKey(key, "changes") {
                    try parser.parseArray { parser throws(JSONError) in
                        changes.append(try plainChange(&parser))
                    }
                } else {
                    throw parser.error("not a plain patch")
                }
            })
            try parser.expectEnd()
        } catch {
            return nil
        }
        return isPatch ? PatchMessage(ack: ack, changes: changes) : nil
    }

    /// Whether `key` is `name` (a byte comparison, lengths first).
    private static func isKey(_ key: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        guard key.count == name.utf8CodeUnitCount, let base = key.baseAddress else { return false }
        return memcmp(base, name.utf8Start, key.count) == 0
    }

    private static func plainChange(_ parser: inout JSONParser) throws(JSONError) -> PatchChange {
        var target: String?
        var prop: String?
        var value: WidgetValue?
        try parser.parseObject(keyBytes: { key, parser throws(JSONError) in
            if isKey(key, "target") {
                target = try parser.parseString()
            } else if isKey(key, "prop") {
                prop = try parser.parseString()
            } else if isKey(key, "value") {
                switch parser.peekValueStart() {
                case UInt8(ascii: "\""): value = .string(try parser.parseString())
                case UInt8(ascii: "{"), UInt8(ascii: "["), nil: throw parser.error("not a plain value")
                default:
                    switch try parser.parseValue() {
                    case .number(let number): value = .number(number)
                    case .bool(let bool): value = .bool(bool)
                    case .null: value = .null
                    default: throw parser.error("not a plain value")
                    }
                }
            } else {
                throw parser.error("not a plain change")
            }
        })
        guard let target, let prop, let value else { throw parser.error("an incomplete change") }
        return PatchChange(target: target, prop: prop, value: value)
    }

    private static func patch(_ value: JSONValue) throws(DecodeError) -> PatchMessage {
        let ack = value["ack"]?.numberValue.map { Int($0) }
        let removed = (value["removed"]?.arrayValue ?? []).compactMap(\.stringValue)
        var added: [WidgetSnapshot] = []
        for element in value["added"]?.arrayValue ?? [] { added.append(try widget(element)) }
        var changes: [PatchChange] = []
        for element in value["changes"]?.arrayValue ?? [] {
            guard let target = element["target"]?.stringValue, let prop = element["prop"]?.stringValue else {
                throw DecodeError(reason: "a change without target or prop")
            }
            if let ops = element["ops"]?.arrayValue {
                var list: [ListChange] = []
                for op in ops { list.append(try listChange(op)) }
                changes.append(PatchChange(target: target, prop: prop, update: .ops(list)))
            } else {
                changes.append(PatchChange(target: target, prop: prop, value: widgetValue(element["value"] ?? .null)))
            }
        }
        return PatchMessage(ack: ack, removed: removed, added: added, changes: changes)
    }

    private static func listChange(_ op: JSONValue) throws(DecodeError) -> ListChange {
        func int(_ key: String) throws(DecodeError) -> Int {
            guard let number = op[key]?.numberValue, let value = Int(exactly: number) else {
                throw DecodeError(reason: "list op without an integer '\(key)'")
            }
            return value
        }
        switch op["op"]?.stringValue {
        case "insert": return .insert(index: try int("index"), rows: rows(op["rows"]?.arrayValue ?? []))
        case "remove": return .remove(index: try int("index"), count: try int("count"))
        case "update":
            guard let row = rows([op["row"] ?? .null]).first else { throw DecodeError(reason: "update without a row") }
            return .update(index: try int("index"), row: row)
        case "move": return .move(from: try int("from"), to: try int("to"))
        default: throw DecodeError(reason: "unknown list op")
        }
    }

    private static func widget(_ value: JSONValue) throws(DecodeError) -> WidgetSnapshot {
        guard let id = value["id"]?.stringValue, let kind = value["kind"]?.stringValue,
              case .object(let members)? = value["props"] else {
            throw DecodeError(reason: "a widget without id, kind or props")
        }
        var properties: [String: WidgetValue] = [:]
        for member in members { properties[member.key] = widgetValue(member.value) }
        return WidgetSnapshot(id: id, kind: kind, properties: properties)
    }

    /// A JSON value as the widget value that encodes to it again.
    static func widgetValue(_ value: JSONValue) -> WidgetValue {
        switch value {
        case .null: return .null
        case .bool(let bool): return .bool(bool)
        case .number(let number): return .number(number)
        case .string(let string): return .string(string)
        case .array(let elements):
            if elements.allSatisfy({ $0.stringValue != nil }) { return .strings(elements.compactMap(\.stringValue)) }
            return .rows(rows(elements))
        case .object: return .null  // no widget property is an object
        }
    }

    private static func rows(_ elements: [JSONValue]) -> [ListRow] {
        elements.compactMap { element -> ListRow? in
            guard case .object(let members) = element, let id = element["id"]?.stringValue else { return nil }
            var fields: [String: WidgetValue] = [:]
            for member in members where member.key != "id" { fields[member.key] = widgetValue(member.value) }
            return ListRow(id: id, fields: fields)
        }
    }

    private static func parse(_ json: String) throws(DecodeError) -> JSONValue {
        do throws(JSONError) {
            return try JSONValue.parse(json)
        } catch {
            throw DecodeError(reason: "\(error)")
        }
    }

    /// A widget value's JSON, to compare values that went through the lossy decoding.
    static func json(_ value: WidgetValue) -> [UInt8] {
        var writer = JSONWriter(capacity: 32)
        writer.widgetValue(value)
        return writer.bytes
    }
}

/// The widget tree of a shared scene as its viewers see it, fed by the owner's patches:
/// what a process that does not run the scene serves `scene` messages from.
package struct SharedSceneMirror {
    /// Every widget, in order.
    package private(set) var widgets: [WidgetSnapshot]

    package init(widgets: [WidgetSnapshot]) {
        self.widgets = widgets
    }

    /// Applies `patch` as a client does: removals, then additions, then changes.
    package mutating func apply(_ patch: PatchMessage) {
        if !patch.removed.isEmpty {
            let removed = Set(patch.removed)
            widgets.removeAll { removed.contains($0.id) }
        }
        widgets.append(contentsOf: patch.added)
        guard !patch.changes.isEmpty else { return }
        var index: [String: Int] = [:]
        for (offset, widget) in widgets.enumerated() { index[widget.id] = offset }
        for change in patch.changes {
            guard let offset = index[change.target] else { continue }
            var properties = widgets[offset].properties
            switch change.update {
            case .value(let value):
                properties[change.prop] = value
            case .ops(let ops):
                guard case .rows(let rows)? = properties[change.prop] ?? .rows([]) else { continue }
                properties[change.prop] = .rows(ListRow.applying(ops, to: rows))
            }
            widgets[offset] = WidgetSnapshot(id: widgets[offset].id, kind: widgets[offset].kind, properties: properties)
        }
    }

    /// The patch that turns `self` into `target` (widgets added and removed by id,
    /// properties compared by their JSON).
    package func patch(to target: [WidgetSnapshot]) -> PatchMessage {
        let mine = Dictionary(widgets.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let theirs = Set(target.map(\.id))
        let removed = widgets.map(\.id).filter { !theirs.contains($0) }
        var added: [WidgetSnapshot] = []
        var changes: [PatchChange] = []
        for widget in target {
            guard let old = mine[widget.id] else {
                added.append(widget)
                continue
            }
            for key in widget.properties.keys.sorted() {
                let new = widget.properties[key]!
                if let before = old.properties[key], SharedSceneWire.json(before) == SharedSceneWire.json(new) { continue }
                changes.append(PatchChange(target: widget.id, prop: key, value: new))
            }
        }
        return PatchMessage(removed: removed, added: added, changes: changes)
    }
}
