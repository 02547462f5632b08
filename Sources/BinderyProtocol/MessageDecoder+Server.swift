import RxWidgets

/// Server messages read back: what a shared scene's mirror reads from its owner's
/// outbox, a test or a Swift client from a server. Plain patches (the common case) are
/// read straight from the bytes (`MessageDecoder+PlainPatch.swift`); every other message
/// through a JSON tree.
///
/// Typed but lossy where JSON is: a colour or a date comes back as the string it was sent
/// as, an empty list as `.strings([])`. Encoding the result again gives the same JSON,
/// which is all a mirror needs. Unknown fields are ignored; a `null` optional field is
/// read as absent.
extension MessageDecoder {
    /// A server message (or widget snapshot) that could not be decoded, and why.
    public struct ServerFailure: Error, Equatable, Sendable, CustomStringConvertible {
        /// What was wrong.
        public let reason: String

        /// A failure for `reason`.
        public init(_ reason: String) {
            self.reason = reason
        }

        /// `bad server message: <reason>`.
        public var description: String { "bad server message: \(reason)" }
    }

    /// Decodes one server message.
    public static func decodeServerMessage(_ text: String) throws(ServerFailure) -> ServerMessage {
        if let patch = decodePlainPatch(text) { return .patch(patch) }
        return try decodeServerMessageThroughTree(text)
    }

    /// ``decodeServerMessage(_:)`` of UTF-8 JSON (a `String` is made only when it is not
    /// a plain patch).
    public static func decodeServerMessage(utf8 json: [UInt8]) throws(ServerFailure) -> ServerMessage {
        if let patch = json.withUnsafeBufferPointer({ decodePlainPatch(utf8: $0) }) { return .patch(patch) }
        return try decodeServerMessageThroughTree(String(decoding: json, as: UTF8.self))
    }

    /// ``decodeServerMessage(_:)`` through a JSON tree, for any message (the general case).
    package static func decodeServerMessageThroughTree(_ text: String) throws(ServerFailure) -> ServerMessage {
        let object = try ObjectReader(try parseTree(text), "a message")
        switch try object.string("type") {
        case "patch": return .patch(try patch(object))
        case "error": return .error(try errorMessage(object))
        case "scene": return .scene(try scene(object))
        case "bye": return .bye(reason: try object.string("reason"))
        case "rows": return .rows(try rowsMessage(object))
        case let other: throw ServerFailure("unknown message type '\(other)' (known: scene, patch, error, bye, rows)")
        }
    }

    private static func patch(_ object: ObjectReader) throws(ServerFailure) -> PatchMessage {
        var removed: [String] = []
        for element in try object.optionalArray("removed") ?? [] {
            guard case .string(let id) = element else { throw ServerFailure("a patch's 'removed' must hold widget ids (strings)") }
            removed.append(id)
        }
        var added: [WidgetSnapshot] = []
        for element in try object.optionalArray("added") ?? [] { added.append(try widget(element)) }
        var changes: [PatchChange] = []
        for element in try object.array("changes") { changes.append(try change(element)) }
        return PatchMessage(ack: try object.optionalInteger("ack"), removed: removed, added: added, changes: changes)
    }

    private static func change(_ value: JSONValue) throws(ServerFailure) -> PatchChange {
        let object = try ObjectReader(value, "a change")
        let target = try object.string("target")
        let prop = try object.string("prop")
        if let ops = try object.optionalArray("ops") {
            var list: [ListChange] = []
            for op in ops { list.append(try listChange(op)) }
            return PatchChange(target: target, prop: prop, update: .ops(list))
        }
        guard let value = object["value"] else { throw ServerFailure("a change needs a 'value' or 'ops'") }
        return PatchChange(target: target, prop: prop, value: try widgetValue(value))
    }

    private static func errorMessage(_ object: ObjectReader) throws(ServerFailure) -> ErrorMessage {
        let codeText = try object.string("code")
        guard let code = ErrorCode(rawValue: codeText) else { throw ServerFailure("unknown error code '\(codeText)'") }
        return ErrorMessage(ack: try object.optionalInteger("ack"), code: code, message: try object.string("message"),
                            target: try object.optionalString("target"))
    }

    private static func scene(_ object: ObjectReader) throws(ServerFailure) -> SceneMessage {
        if let version = try object.optionalInteger("protocol"), version != binderyProtocolVersion {
            throw ServerFailure("a scene of protocol \(version); this is protocol \(binderyProtocolVersion)")
        }
        var sceneLayout: SceneLayout?
        if let value = object["layout"], value != .null { sceneLayout = try layout(value) }
        var scene = SceneMessage(
            session: try object.string("session"), scene: try object.string("scene"), title: try object.string("title"),
            resumed: try object.bool("resumed"), widgets: try decodeWidgets(object["widgets"] ?? .null),
            layout: sceneLayout, ack: try object.optionalInteger("ack"), description: try object.optionalString("description"))
        scene.restored = try object.optionalBool("restored")
        return scene
    }

    private static func rowsMessage(_ object: ObjectReader) throws(ServerFailure) -> RowsMessage {
        var rows: [ListRow] = []
        for element in try object.array("rows") { rows.append(try row(element)) }
        return RowsMessage(ack: try object.optionalInteger("ack"), target: try object.string("target"),
                           from: try object.integer("from"), count: try object.integer("count"), rows: rows)
    }
}
