import RxWidgets

/// Widgets, widget values, rows and list operations as messages carry them: shared by the
/// `scene`, `patch` and `rows` messages and by stored widget snapshots
/// (``MessageEncoder/encodeWidgets(_:)``).
extension MessageDecoder {
    /// The widgets of a JSON array, as in a `scene` message's `widgets`.
    package static func decodeWidgets(_ text: String) throws(ServerFailure) -> [WidgetSnapshot] {
        try decodeWidgets(try parseTree(text))
    }

    /// The widgets of an already parsed JSON array.
    package static func decodeWidgets(_ value: JSONValue) throws(ServerFailure) -> [WidgetSnapshot] {
        guard case .array(let elements) = value else { throw ServerFailure("widgets must be an array") }
        var widgets: [WidgetSnapshot] = []
        widgets.reserveCapacity(elements.count)
        for element in elements { widgets.append(try widget(element)) }
        return widgets
    }

    /// `{"id":…,"kind":…,"props":{…}}`.
    static func widget(_ value: JSONValue) throws(ServerFailure) -> WidgetSnapshot {
        let object = try ObjectReader(value, "a widget")
        let id = try object.string("id")
        let kind = try object.string("kind")
        guard case .object(let members)? = object["props"] else { throw ServerFailure("widget '\(id)' needs 'props' (an object)") }
        var properties: [String: WidgetValue] = [:]
        properties.reserveCapacity(members.count)
        for member in members { properties[member.key] = try widgetValue(member.value) }
        return WidgetSnapshot(id: id, kind: kind, properties: properties)
    }

    /// A JSON value as the widget value that encodes to it again: an array of strings (or
    /// an empty one) as `.strings`, an array of objects as `.rows`.
    static func widgetValue(_ value: JSONValue) throws(ServerFailure) -> WidgetValue {
        switch value {
        case .null: return .null
        case .bool(let bool): return .bool(bool)
        case .number(let number): return .number(number)
        case .string(let string): return .string(string)
        case .array(let elements):
            var strings: [String] = []
            strings.reserveCapacity(elements.count)
            for element in elements {
                guard case .string(let string) = element else { break }
                strings.append(string)
            }
            if strings.count == elements.count { return .strings(strings) }
            var rows: [ListRow] = []
            rows.reserveCapacity(elements.count)
            for element in elements { rows.append(try row(element)) }
            return .rows(rows)
        case .object:
            throw ServerFailure("a widget value is never an object")
        }
    }

    /// `{"id":"…",<fields>}`.
    static func row(_ value: JSONValue) throws(ServerFailure) -> ListRow {
        let object = try ObjectReader(value, "a row")
        let id = try object.string("id")
        var fields: [String: WidgetValue] = [:]
        for member in object.members where member.key != "id" { fields[member.key] = try widgetValue(member.value) }
        return ListRow(id: id, fields: fields)
    }

    /// `{"op":"insert","index":…,"rows":[…]}`, `remove` (`index`, `count`), `update`
    /// (`index`, `row`), `move` (`from`, `to`).
    static func listChange(_ value: JSONValue) throws(ServerFailure) -> ListChange {
        let object = try ObjectReader(value, "a list operation")
        switch try object.string("op") {
        case "insert":
            var rows: [ListRow] = []
            for element in try object.array("rows") { rows.append(try row(element)) }
            return .insert(index: try object.integer("index"), rows: rows)
        case "remove": return .remove(index: try object.integer("index"), count: try object.integer("count"))
        case "update": return .update(index: try object.integer("index"), row: try row(object["row"] ?? .null))
        case "move": return .move(from: try object.integer("from"), to: try object.integer("to"))
        case let other: throw ServerFailure("unknown list operation '\(other)' (known: insert, remove, update, move)")
        }
    }
}
