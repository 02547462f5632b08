import Foundation

/// What a ``TableView`` asks for its sections and rows, as `UITableViewDataSource`.
/// The `rx.items` bindings install one; set ``TableView/dataSource`` yourself for a
/// hand-written one (the table holds it weakly, as UIKit does) and call
/// ``TableView/reloadData()``.
public protocol TableViewDataSource: AnyObject {
    /// The number of sections. Default 1.
    func numberOfSections(in tableView: TableView) -> Int
    /// The number of rows in `section`.
    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int
    /// The cell for the row at `indexPath`.
    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell
    /// The section's header title. Default `nil` (no header).
    func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String?
    /// The section's footer title. Default `nil`.
    func tableView(_ tableView: TableView, titleForFooterInSection section: Int) -> String?
    /// Whether the row can be deleted or inserted (swipe, or the editing control).
    /// Default `true`, as UIKit's.
    func tableView(_ tableView: TableView, canEditRowAt indexPath: IndexPath) -> Bool
    /// Whether the row shows a reorder handle while editing. Default `false` (UIKit
    /// allows it only when `moveRowAt` is implemented; RxDataSources' default is `true`).
    func tableView(_ tableView: TableView, canMoveRowAt indexPath: IndexPath) -> Bool
    /// The user moved a row: update the model (the table has moved its row already).
    /// Default: nothing.
    func tableView(_ tableView: TableView, moveRowAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath)
    /// The user deleted (or inserted at) a row; the table changes nothing itself:
    /// update the model, and the rows follow. Default: nothing.
    func tableView(_ tableView: TableView, commit editingStyle: TableViewCell.EditingStyle, forRowAt indexPath: IndexPath)
}

extension TableViewDataSource {
    /// One section.
    public func numberOfSections(in tableView: TableView) -> Int { 1 }
    /// No header.
    public func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? { nil }
    /// No footer.
    public func tableView(_ tableView: TableView, titleForFooterInSection section: Int) -> String? { nil }
    /// Every row can be edited.
    public func tableView(_ tableView: TableView, canEditRowAt indexPath: IndexPath) -> Bool { true }
    /// No row moves.
    public func tableView(_ tableView: TableView, canMoveRowAt indexPath: IndexPath) -> Bool { false }
    /// Nothing.
    public func tableView(_ tableView: TableView, moveRowAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath) {}
    /// Nothing.
    public func tableView(_ tableView: TableView, commit editingStyle: TableViewCell.EditingStyle, forRowAt indexPath: IndexPath) {}
}

/// A data source that names its sections and rows by identity (RxDataSources' animated
/// one), so the table's row keys survive inserts and moves. Without it, keys are
/// positions (`"0"` for a section, `"0.3"` for a row) and every reload is positional.
protocol TableViewKeyedDataSource: TableViewDataSource {
    /// The key of section `section`, unique among the sections.
    func tableView(_ tableView: TableView, keyForSection section: Int) -> String
    /// The key of the row at `indexPath`, unique among all rows of the table.
    func tableView(_ tableView: TableView, keyForRowAt indexPath: IndexPath) -> String
}

/// A data source that can hand a row's model to `rx.model(at:)` and `rx.modelSelected`,
/// as RxCocoa's `SectionedViewDataSourceType`.
public protocol SectionedViewDataSourceType {
    /// The model of the row at `indexPath`.
    ///
    /// - Throws: when there is no such row (``RxDataSourceError/outOfBounds(indexPath:)``)
    ///   or no items were bound yet.
    func model(at indexPath: IndexPath) throws -> Any
}

/// Errors of the table data sources, as RxCocoa's and RxDataSources'.
public enum RxDataSourceError: Error, Equatable, CustomStringConvertible {
    /// No row at `indexPath`.
    case outOfBounds(indexPath: IndexPath)
    /// `rx.model(at:)` on a table no `rx.items` binding feeds.
    case itemsNotYetBound
    /// A model was not of the type asked for (`rx.modelSelected(Int.self)` on strings).
    case castingError(expected: String, actual: String)

    /// A readable message.
    public var description: String {
        switch self {
        case .outOfBounds(let indexPath): return "no row at \(indexPath)"
        case .itemsNotYetBound: return "the table has no rx.items binding (or it sent nothing yet)"
        case .castingError(let expected, let actual): return "expected a model of type \(expected), got \(actual)"
        }
    }
}
