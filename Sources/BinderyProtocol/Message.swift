import RxWidgets

/// The wire protocol's version, sent as `"protocol": 1` in every `scene` message.
public let binderyProtocolVersion = 1

/// A message from a client (see PROTOCOL.md).
public enum ClientMessage: Equatable, Sendable {
    /// A user's action on a control.
    case event(EventMessage)
    /// "Send me everything again": answered with a full `scene` message.
    case resync(seq: Int?)
    /// The client ends the session (same as `DELETE /api/sessions/<id>`).
    case bye
    /// "Send me these rows of a windowed table" (PROTOCOL.md, "Large tables").
    case rows(RowsRequest)
    /// A step of a file upload to a document picker (see ``UploadMessage``).
    case upload(UploadMessage)
}

/// `{"type":"event","seq":7,"target":"whiteSlider","event":"valueChanged","value":0.25}`:
/// a control event on the widget `target`, after applying `value` (if present) to the
/// widget's value property.
public struct EventMessage: Equatable, Sendable {
    /// The client's sequence number, echoed as `ack` in the answer (optional).
    public var seq: Int?
    /// The widget's id.
    public var target: String
    /// The `Control.Event` name (`touchUpInside`, `valueChanged`, `editingChanged`, ...).
    public var event: String
    /// The new value of the widget's value property, if the event carries one.
    public var value: WidgetValue?
    /// The row's key, for a table's row events (`itemSelected`, `itemMoved`, ...).
    public var row: String?
    /// The destination section's key, for `itemMoved`.
    public var toSection: String?
    /// The destination index within that section, for `itemMoved`.
    public var toIndex: Int?
    /// The chosen action's index, for an alert's `actionTriggered`.
    public var action: Int?

    /// An event message.
    public init(seq: Int? = nil, target: String, event: String, value: WidgetValue? = nil,
                row: String? = nil, toSection: String? = nil, toIndex: Int? = nil, action: Int? = nil) {
        self.seq = seq
        self.target = target
        self.event = event
        self.value = value
        self.row = row
        self.toSection = toSection
        self.toIndex = toIndex
        self.action = action
    }
}

/// A message to a client (see PROTOCOL.md).
public enum ServerMessage: Equatable, Sendable {
    /// The whole scene: sent first, on resume and on resync.
    case scene(SceneMessage)
    /// Some widget properties changed.
    case patch(PatchMessage)
    /// The client's message could not be handled; the session goes on.
    case error(ErrorMessage)
    /// The session ended (the client said bye, it was deleted, or it expired).
    case bye(reason: String)
    /// Rows of a windowed table, answering a ``RowsRequest``.
    case rows(RowsMessage)

    /// The `ack` this message carries, if any.
    public var ack: Int? {
        switch self {
        case .scene(let scene): return scene.ack
        case .patch(let patch): return patch.ack
        case .error(let error): return error.ack
        case .bye: return nil
        case .rows(let rows): return rows.ack
        }
    }

    /// The wire `type`.
    public var type: String {
        switch self {
        case .scene: return "scene"
        case .patch: return "patch"
        case .error: return "error"
        case .bye: return "bye"
        case .rows: return "rows"
        }
    }
}

/// `{"type":"scene","protocol":1,"session":"…","scene":"colors","title":"Colors",
/// "resumed":false,"widgets":[{"id":"picker","kind":"segmentedControl","props":{…}}],
/// "layout":…}`.
public struct SceneMessage: Equatable, Sendable {
    /// The session's token (also its id in the HTTP API).
    public var session: String
    /// The scene's name.
    public var scene: String
    /// The scene's title.
    public var title: String
    /// The scene's description (``SceneDefinition/description``), if it has one.
    public var description: String?
    /// Whether this continues an existing session (resume or resync).
    public var resumed: Bool
    /// Every widget, in order.
    public var widgets: [WidgetSnapshot]
    /// The scene's layout, if it declares one.
    public var layout: SceneLayout?
    /// The `seq` of a `resync` this answers.
    public var ack: Int?
    /// False on a resume whose state the session store could not rebuild (its journal
    /// went over the cap): the scene is mounted fresh under the same token. Nil (not
    /// sent) otherwise.
    public var restored: Bool?

    /// A scene message.
    public init(session: String, scene: String, title: String, resumed: Bool, widgets: [WidgetSnapshot],
                layout: SceneLayout? = nil, ack: Int? = nil, description: String? = nil) {
        self.session = session
        self.scene = scene
        self.title = title
        self.description = description
        self.resumed = resumed
        self.widgets = widgets
        self.layout = layout
        self.ack = ack
    }
}

/// `{"type":"patch","ack":7,"changes":[{"target":"output","prop":"text","value":"HI"}]}`.
public struct PatchMessage: Equatable, Sendable {
    /// The `seq` of the event that caused these changes; nil for changes from elsewhere.
    public var ack: Int?
    /// The changes, one per widget property, in the order they first happened.
    public var changes: [PatchChange]
    /// Widgets that appeared (a presented alert and its text fields), appended to the
    /// scene's widgets; applied after ``removed`` and before ``changes``.
    public var added: [WidgetSnapshot]
    /// The ids of widgets that went away (a dismissed alert's); applied first.
    public var removed: [String]

    /// A patch.
    public init(ack: Int? = nil, removed: [String] = [], added: [WidgetSnapshot] = [], changes: [PatchChange]) {
        self.ack = ack
        self.removed = removed
        self.added = added
        self.changes = changes
    }
}

/// One property's change in a patch: a new value, or keyed list operations.
public struct PatchChange: Equatable, Sendable {
    /// The widget's id.
    public var target: String
    /// The property's name (`text`, `value`, `items`, ...).
    public var prop: String
    /// What changed.
    public var update: Update

    /// The two forms of a change.
    public enum Update: Equatable, Sendable {
        /// The property's new value (`"value": ...`; a list's full `items` array).
        case value(WidgetValue)
        /// Keyed list operations (`"ops": [...]`), applied in order.
        case ops([ListChange])
    }

    /// A change.
    public init(target: String, prop: String, update: Update) {
        self.target = target
        self.prop = prop
        self.update = update
    }

    /// A change to `value`.
    public init(target: String, prop: String, value: WidgetValue) {
        self.init(target: target, prop: prop, update: .value(value))
    }
}

/// `{"type":"error","ack":7,"code":"unknown-target","message":"…","target":"nope"}`.
public struct ErrorMessage: Equatable, Sendable {
    /// The `seq` of the message this answers, when it had one.
    public var ack: Int?
    /// The stable code.
    public var code: ErrorCode
    /// A readable explanation.
    public var message: String
    /// The event's target, when the error concerns one.
    public var target: String?

    /// An error message.
    public init(ack: Int? = nil, code: ErrorCode, message: String, target: String? = nil) {
        self.ack = ack
        self.code = code
        self.message = message
        self.target = target
    }

    /// An error message for `error`.
    public init(ack: Int?, _ error: ProtocolError) {
        self.init(ack: ack, code: error.code, message: error.message, target: error.target)
    }
}
