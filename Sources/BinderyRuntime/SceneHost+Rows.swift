import BinderyProtocol
import RxWidgets

extension SceneHost {
    /// The answer to a ``RowsRequest``: the rows, or an error (`unknown-target` for no
    /// such table, `index-out-of-range` for `from` negative or past the end, `to` before
    /// `from`, or more than ``RowsRequest/maximumRows`` asked).
    func rows(_ request: RowsRequest) -> ServerMessage {
        func error(_ code: ErrorCode, _ message: String) -> ServerMessage {
            .error(ErrorMessage(ack: request.seq, code: code, message: message, target: request.target))
        }
        guard let table = tree.widget(withID: request.target) as? TableView else {
            return error(.unknownTarget, "no table '\(request.target)'")
        }
        let count = table.rows.count
        guard request.from >= 0, request.from <= request.to, request.from <= count else {
            return error(.indexOutOfRange, "tableView '\(request.target)': rows \(request.from)..<\(request.to) are outside 0..<\(count)")
        }
        guard request.to - request.from <= RowsRequest.maximumRows else {
            return error(.indexOutOfRange, "tableView '\(request.target)': at most \(RowsRequest.maximumRows) rows per request")
        }
        // `to` past the end is cut: rows may have gone since the client asked.
        return .rows(RowsMessage(ack: request.seq, target: request.target, from: request.from, count: count,
                                 rows: Array(table.rows[request.from..<min(request.to, count)])))
    }
}
