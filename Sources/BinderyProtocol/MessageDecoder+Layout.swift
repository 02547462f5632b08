extension MessageDecoder {
    /// A `scene` message's `layout` (``SceneLayout``'s wire form): a widget id, or an
    /// object with `widget`, `row`, `column`, `grid` or `group`. Nesting is bounded by
    /// the parser's depth limit.
    static func layout(_ value: JSONValue) throws(ServerFailure) -> SceneLayout {
        if case .string(let id) = value { return .widget(id) }
        let object = try ObjectReader(value, "a layout item")
        if let id = try object.optionalString("widget") {
            return .widget(id, caption: try object.optionalString("caption"))
        }
        for axis in ["row", "column"] {
            guard let items = try object.optionalArray(axis) else { continue }
            let children = try layouts(items)
            let alignment = try enumeration(object, "alignment", SceneLayout.Alignment.self) ?? .fill
            let distribution = try enumeration(object, "distribution", SceneLayout.Distribution.self) ?? .fill
            let spacing = try object.optionalNumber("spacing")
            return axis == "row" ? .row(children, alignment: alignment, distribution: distribution, spacing: spacing)
                : .column(children, alignment: alignment, distribution: distribution, spacing: spacing)
        }
        if let items = try object.optionalArray("grid") {
            return .grid(try layouts(items), columns: try object.integer("columns"), spacing: try object.optionalNumber("spacing"))
        }
        if let title = try object.optionalString("group") {
            return .group(title, try layouts(try object.array("children")))
        }
        throw ServerFailure("a layout item must be a widget id, or an object with 'widget', 'row', 'column', 'grid' or 'group'")
    }

    private static func layouts(_ items: [JSONValue]) throws(ServerFailure) -> [SceneLayout] {
        var children: [SceneLayout] = []
        children.reserveCapacity(items.count)
        for item in items { children.append(try layout(item)) }
        return children
    }

    private static func enumeration<Value: RawRepresentable<String>>(
        _ object: ObjectReader, _ key: String, _: Value.Type
    ) throws(ServerFailure) -> Value? {
        guard let text = try object.optionalString(key) else { return nil }
        guard let value = Value(rawValue: text) else { throw ServerFailure("unknown \(key) '\(text)'") }
        return value
    }
}
