import RxWidgets

/// `{"type":"rows","seq":4,"target":"numbersTable","from":200,"to":400}`: a client that
/// got a table's rows windowed (``SceneMessage/windowingTables(to:)``) asks for the rows
/// `from..<to` as they are now (PROTOCOL.md, "Large tables").
public struct RowsRequest: Equatable, Sendable {
    /// The client's sequence number, echoed as `ack` in the answer (optional).
    public var seq: Int?
    /// The table's widget id.
    public var target: String
    /// The first row's flat index.
    public var from: Int
    /// The flat index after the last row.
    public var to: Int

    /// The most rows one request may ask for.
    public static let maximumRows = 1_000

    /// A request.
    public init(seq: Int? = nil, target: String, from: Int, to: Int) {
        self.seq = seq
        self.target = target
        self.from = from
        self.to = to
    }
}

/// `{"type":"rows","ack":4,"target":"numbersTable","from":200,"count":10001,"rows":[…]}`:
/// the answer to a ``RowsRequest``: the rows `from..<from + rows.count` (fewer than asked
/// when `to` is past the end), and how many the table has now.
public struct RowsMessage: Equatable, Sendable {
    /// The request's `seq`.
    public var ack: Int?
    /// The table's widget id.
    public var target: String
    /// The first row's flat index.
    public var from: Int
    /// How many rows the table has.
    public var count: Int
    /// The rows.
    public var rows: [ListRow]

    /// An answer.
    public init(ack: Int?, target: String, from: Int, count: Int, rows: [ListRow]) {
        self.ack = ack
        self.target = target
        self.from = from
        self.count = count
        self.rows = rows
    }
}

extension SceneMessage {
    /// The most rows a window may hold (a client asks for fewer or is given this many).
    public static let maximumRowWindow = 1_000

    /// This scene with every one-section table of more than `window` rows cut to its first
    /// `window` rows, plus `itemCount`, the number it has (PROTOCOL.md, "Large tables").
    /// Tables in several sections are sent whole: a client could not place the rows it
    /// has not seen in their sections.
    public func windowingTables(to window: Int) -> SceneMessage {
        var copy = self
        for (index, widget) in widgets.enumerated() where widget.kind == "tableView" {
            guard case .rows(let rows)? = widget.properties["items"], rows.count > window,
                  case .rows(let sections)? = widget.properties["sections"], sections.count <= 1 else { continue }
            var properties = widget.properties
            properties["items"] = .rows(Array(rows.prefix(window)))
            properties["itemCount"] = .number(Double(rows.count))
            copy.widgets[index] = WidgetSnapshot(id: widget.id, kind: widget.kind, properties: properties)
        }
        return copy
    }
}
