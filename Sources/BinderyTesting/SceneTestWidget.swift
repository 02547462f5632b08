import RxWidgets

/// A widget as a client sees it: what the `scene` message said, with every patch since
/// (and the client's own input) applied — like the browser's DOM in Phoenix's
/// LiveViewTest. Comparing it with the server's widgets checks that the patches told
/// the client everything.
public struct SceneTestWidget: Equatable, Sendable {
    /// The widget's id.
    public let id: String
    /// Its kind (`slider`, `label`, ...).
    public let kind: String
    /// Its properties by name.
    public internal(set) var props: [String: WidgetValue]

    /// A widget.
    public init(id: String, kind: String, props: [String: WidgetValue]) {
        self.id = id
        self.kind = kind
        self.props = props
    }

    /// The property named `name`.
    public subscript(name: String) -> WidgetValue? {
        props[name]
    }

    /// `props["text"]` as a string, if it is one.
    public var text: String? {
        if case .string(let text) = props["text"] { return text }
        return nil
    }

    /// `props["isEnabled"]` as a Boolean, if it is one.
    public var isEnabled: Bool? {
        if case .bool(let enabled) = props["isEnabled"] { return enabled }
        return nil
    }

    /// `props["items"]`'s rows, if it holds rows.
    public var rows: [ListRow]? {
        if case .rows(let rows) = props["items"] { return rows }
        return nil
    }
}
