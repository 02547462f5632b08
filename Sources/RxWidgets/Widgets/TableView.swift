import Foundation
import RxCore

/// The positions of a moved row, as RxCocoa's `ItemMovedEvent`.
public typealias ItemMovedEvent = (sourceIndex: IndexPath, destinationIndex: IndexPath)

/// A list of rows in sections, like `UITableView`: rows come from a
/// ``TableViewDataSource`` (usually installed by `rx.items`), users select, delete,
/// insert, move rows and tap accessory buttons, and the table reports it through `rx`
/// (`itemSelected`, `itemDeleted`, ...), as RxCocoa does.
///
/// On the wire (PROTOCOL.md, "Table views") the table is its `sections` and its `items`
/// — every row of every section in one keyed list, each row naming its section — so a
/// change of a few rows is a few keyed operations whatever the table's size. Row events
/// name a row by its key, never only by position.
///
/// Loop-confined, like every widget.
open class TableView: View, WidgetEventReceiver {
    /// The table's look, as `UITableView.Style`.
    public enum Style: String, Sendable {
        /// Rows edge to edge, headers float.
        case plain
        /// Sections as separated groups.
        case grouped
        /// Groups with rounded, inset corners.
        case insetGrouped
    }

    /// Where a row is scrolled to, as `UITableView.ScrollPosition` (the client decides).
    public enum ScrollPosition: Sendable {
        /// Wherever it is.
        case none
        /// At the top.
        case top
        /// In the middle.
        case middle
        /// At the bottom.
        case bottom
    }

    /// How rows animate when they change, as `UITableView.RowAnimation` (the client
    /// decides how to animate).
    public enum RowAnimation: Sendable {
        /// Fade.
        case fade
        /// Slide from the right.
        case right
        /// Slide from the left.
        case left
        /// Slide from the top.
        case top
        /// Slide from the bottom.
        case bottom
        /// None.
        case none
        /// Keep in the middle.
        case middle
        /// The system's choice.
        case automatic
    }

    /// The style, fixed at creation.
    public let style: Style

    /// Where rows come from; held weakly, as in UIKit (an `rx.items` binding keeps its
    /// data source alive). Call ``reloadData()`` after setting it.
    public weak var dataSource: TableViewDataSource?

    /// Whether rows can be selected. Default `true`.
    public var allowsSelection: Bool = true {
        didSet {
            if allowsSelection != oldValue {
                changed(TablePropertyName.allowsSelection, .bool(oldValue), .bool(allowsSelection))
            }
        }
    }

    /// Whether several rows can be selected at once (a selected row's tap deselects it).
    /// Default `false`.
    public var allowsMultipleSelection: Bool = false {
        didSet {
            if allowsMultipleSelection != oldValue {
                changed(TablePropertyName.allowsMultipleSelection, .bool(oldValue), .bool(allowsMultipleSelection))
            }
        }
    }

    /// Whether rows can be selected while editing. Default `false`, as in UIKit.
    public var allowsSelectionDuringEditing: Bool = false {
        didSet {
            if allowsSelectionDuringEditing != oldValue {
                changed(TablePropertyName.allowsSelectionDuringEditing, .bool(oldValue),
                        .bool(allowsSelectionDuringEditing))
            }
        }
    }

    /// Whether the table is in editing mode (delete/insert controls and reorder handles
    /// shown). Default `false`. See ``setEditing(_:animated:)``.
    public var isEditing: Bool {
        get { editing }
        set { setEditing(newValue, animated: false) }
    }

    private var editing = false

    /// The sections, the rows and the selection, by key.
    let items = KeyedItems(selectionProperty: TablePropertyName.selectedRows, noun: "row", keyName: "a row key")

    /// The rows as the client sees them, flat, in order (the `items` property).
    public var rows: [ListRow] { items.content.rows }
    /// The sections as the client sees them (the `sections` property).
    public var sectionRows: [ListRow] { items.content.sections }

    private var registeredCells: [String: TableViewCell.Type] = [:]

    let itemSelectedHub = EventHub<IndexPath>()
    let itemDeselectedHub = EventHub<IndexPath>()
    let itemDeletedHub = EventHub<IndexPath>()
    let itemInsertedHub = EventHub<IndexPath>()
    let itemMovedHub = EventHub<ItemMovedEvent>()
    let itemAccessoryButtonTappedHub = EventHub<IndexPath>()

    /// The data source an `rx.items` binding installed (kept for `rx.model(at:)`).
    var rxDataSource: AnyObject?

    /// A ``Style/plain`` table with no rows.
    public override init(frame: CGRect) {
        style = .plain
        super.init(frame: frame)
    }

    /// UIKit's archive initializer: Bindery has no archives, so this is the plain view.
    public required convenience init?(coder: NSCoder) {
        self.init(frame: .zero)
    }

    /// A table of `style`, as `UITableView(frame:style:)`.
    public init(style: Style) {
        self.style = style
        super.init(frame: .zero)
    }

    override public var kind: String { "tableView" }

    /// Row and section keys are unique by construction: data sources key rows by
    /// identity only when the keys are unique, by position otherwise.
    override var rowIDsAreUnique: Bool { true }

    // MARK: - Cells

    /// Registers `cellClass` for `identifier`: ``dequeueReusableCell(withIdentifier:for:)``
    /// makes cells of that class.
    public func register(_ cellClass: TableViewCell.Type?, forCellReuseIdentifier identifier: String) {
        registeredCells[identifier] = cellClass
    }

    /// A new cell of the class registered for `identifier`, or `nil` when none is
    /// registered (UIKit's older form: then make a cell yourself).
    public func dequeueReusableCell(withIdentifier identifier: String) -> TableViewCell? {
        registeredCells[identifier].map { $0.init(style: .default, reuseIdentifier: identifier) }
    }

    /// A new cell of the class registered for `identifier`. UIKit raises an exception
    /// for an unregistered identifier; this reports it to `Hooks.bindingErrorHandler`
    /// and returns a ``TableViewCell/CellStyle/default`` cell, so one mistake cannot
    /// stop a server.
    public func dequeueReusableCell(withIdentifier identifier: String, for indexPath: IndexPath) -> TableViewCell {
        if let cell = dequeueReusableCell(withIdentifier: identifier) { return cell }
        Hooks.bindingErrorHandler(TableViewError.unregisteredCellIdentifier(tableID: id, identifier: identifier))
        return TableViewCell(style: .default, reuseIdentifier: identifier)
    }

    // MARK: - Rows

    /// The number of sections.
    public var numberOfSections: Int { items.content.sections.count }

    /// The number of rows in `section` (0 for a section that does not exist).
    public func numberOfRows(inSection section: Int) -> Int {
        items.count(inSection: section)
    }

    /// Asks the data source for every section and row again, as UIKit's `reloadData`
    /// (which also clears the selection). Row keys come from the data source when it
    /// names rows by identity, else from their positions.
    public func reloadData() {
        items.forgetSelection()
        let content = TableContent.load(from: dataSource, for: self)
        setContent(content, keepingSelection: false)
    }

    /// Replaces the rows with `content` (what the data sources show). Keeps the
    /// selection of rows whose keys remain when `keepingSelection` (a batch update), as
    /// UIKit adjusts it; clears it otherwise (a reload).
    func setContent(_ content: TableContent, keepingSelection: Bool) {
        items.replace(with: content, keepingSelection: keepingSelection, on: self)
    }

    /// The wire row at `indexPath`, if there is one.
    public func row(at indexPath: IndexPath) -> ListRow? {
        items.flatIndex(of: indexPath).map { rows[$0] }
    }

    /// The key of the row at `indexPath`, if there is one.
    public func rowKey(at indexPath: IndexPath) -> String? {
        items.key(at: indexPath)
    }

    /// The index path of the row keyed `key`, if there is one.
    public func indexPath(forRowKey key: String) -> IndexPath? {
        items.indexPath(forKey: key)
    }

    // MARK: - Selection

    /// The selected row's index path (the first selected, when several are), or `nil`.
    public var indexPathForSelectedRow: IndexPath? {
        items.selectedKeys.first.flatMap(indexPath(forRowKey:))
    }

    /// The selected rows' index paths, in the order they were selected; `nil` when
    /// none is selected, as in UIKit.
    public var indexPathsForSelectedRows: [IndexPath]? {
        let paths = items.selectedKeys.compactMap(indexPath(forRowKey:))
        return paths.isEmpty ? nil : paths
    }

    /// The selected rows' keys (the `selectedRows` property).
    public var selectedRowKeys: [String] { items.selectedKeys }

    /// Selects the row at `indexPath` (with single selection, only it), or clears the
    /// selection for `nil`. Sends no `rx` event, as UIKit calls no delegate for it.
    public func selectRow(at indexPath: IndexPath?, animated: Bool, scrollPosition: ScrollPosition) {
        items.select(at: indexPath, multiple: allowsMultipleSelection, on: self)
    }

    /// Deselects the row at `indexPath`. Sends no `rx` event.
    public func deselectRow(at indexPath: IndexPath, animated: Bool) {
        guard let key = rowKey(at: indexPath) else { return }
        items.deselect(key, on: self)
    }

    // MARK: - Editing

    /// Enters or leaves editing mode. Leaving it keeps the selection; entering it
    /// clears it unless ``allowsSelectionDuringEditing``, as UIKit does.
    open func setEditing(_ editing: Bool, animated: Bool) {
        guard editing != self.editing else { return }
        self.editing = editing
        changed(TablePropertyName.isEditing, .bool(!editing), .bool(editing))
        if editing && !allowsSelectionDuringEditing {
            items.setSelection([], on: self)
        }
    }

    // MARK: - Snapshot

    override func collectProperties(into properties: inout [String: WidgetValue]) {
        super.collectProperties(into: &properties)
        properties[TablePropertyName.style] = .string(style.rawValue)
        properties[TablePropertyName.sections] = .rows(sectionRows)
        properties[PropertyName.items] = .rows(rows)
        properties[TablePropertyName.isEditing] = .bool(editing)
        properties[TablePropertyName.selectedRows] = .strings(items.selectedKeys)
        properties[TablePropertyName.allowsSelection] = .bool(allowsSelection)
        properties[TablePropertyName.allowsMultipleSelection] = .bool(allowsMultipleSelection)
        properties[TablePropertyName.allowsSelectionDuringEditing] = .bool(allowsSelectionDuringEditing)
    }

    // MARK: - User events (the server's side)

    /// The row events a client may send (PROTOCOL.md, "Table views").
    public var widgetEventNames: Set<String> { TableEventName.all }

    /// Performs a user's row action with UIKit's rules and order; see
    /// ``WidgetEventReceiver/receive(_:)``.
    public func receive(_ event: WidgetEvent) throws(WidgetInputError) {
        let (key, flat, indexPath) = try items.target(of: event, in: self)
        switch event.name {
        case TableEventName.itemSelected:
            try userSelect(key: key, at: indexPath)
        case TableEventName.itemDeselected:
            // A row that is not selected cannot be deselected: nothing happens.
            guard items.deselect(key, on: self) else { return }
            itemDeselectedHub.send(indexPath)
        case TableEventName.itemDeleted, TableEventName.itemInserted:
            let style: TableViewCell.EditingStyle = event.name == TableEventName.itemDeleted ? .delete : .insert
            guard dataSource?.tableView(self, canEditRowAt: indexPath) ?? false else {
                throw WidgetInputError(.disabled, "\(kind) '\(id)': row '\(key)' cannot be edited")
            }
            let rowStyle = rows[flat][RowField.editingStyle].flatMap { value -> TableViewCell.EditingStyle? in
                if case .string(let name) = value { return TableViewCell.EditingStyle(rawValue: name) }
                return nil
            } ?? .delete
            guard rowStyle == style else {
                throw WidgetInputError(.unknownEvent, "\(kind) '\(id)': row '\(key)' has editing style \(rowStyle.rawValue), not \(style.rawValue)")
            }
            dataSource?.tableView(self, commit: style, forRowAt: indexPath)
            (style == .delete ? itemDeletedHub : itemInsertedHub).send(indexPath)
        case TableEventName.itemMoved:
            try userMove(key: key, from: flat, at: indexPath, event: event)
        default:  // itemAccessoryButtonTapped
            let accessory = rows[flat][editing ? RowField.editingAccessoryType : RowField.accessoryType]
            guard case .string(let name) = accessory, TableViewCell.AccessoryType(rawValue: name)?.isButton == true else {
                throw WidgetInputError(.unknownEvent, "\(kind) '\(id)': row '\(key)' has no accessory button")
            }
            itemAccessoryButtonTappedHub.send(indexPath)
        }
    }

    private func userSelect(key: String, at indexPath: IndexPath) throws(WidgetInputError) {
        guard allowsSelection, !editing || allowsSelectionDuringEditing else {
            throw WidgetInputError(.disabled, "\(kind) '\(id)': selection is off\(editing ? " while editing" : "")")
        }
        // UIKit deselects the other row first, and says so (didDeselect, then didSelect).
        let deselected = items.select(key, multiple: allowsMultipleSelection, on: self).compactMap(indexPath(forRowKey:))
        for path in deselected { itemDeselectedHub.send(path) }
        itemSelectedHub.send(indexPath)
    }

    private func userMove(key: String, from flat: Int, at source: IndexPath, event: WidgetEvent) throws(WidgetInputError) {
        guard editing else {
            throw WidgetInputError(.disabled, "\(kind) '\(id)': rows move only while editing")
        }
        guard dataSource?.tableView(self, canMoveRowAt: source) ?? false else {
            throw WidgetInputError(.disabled, "\(kind) '\(id)': row '\(key)' cannot move")
        }
        let destination = try items.moveDestination(of: event, from: source, in: self)
        dataSource?.tableView(self, moveRowAt: source, to: destination)
        // UIKit has moved the row on screen already: move ours to match, no reload.
        items.move(from: flat, at: source, to: destination, on: self)
        itemMovedHub.send((source, destination))
    }
}

/// The table's wire property names (beside `items`).
enum TablePropertyName {
    static let style = "style"
    static let sections = "sections"
    static let isEditing = "isEditing"
    static let selectedRows = "selectedRows"
    static let allowsSelection = "allowsSelection"
    static let allowsMultipleSelection = "allowsMultipleSelection"
    static let allowsSelectionDuringEditing = "allowsSelectionDuringEditing"
}

/// The row events a client sends to a table (RxCocoa's names).
public enum TableEventName {
    /// The user tapped a row: it is selected, `rx.itemSelected` fires.
    public static let itemSelected = "itemSelected"
    /// The user tapped a selected row of a multiple-selection table.
    public static let itemDeselected = "itemDeselected"
    /// The user deleted a row (swipe, or the delete control while editing).
    public static let itemDeleted = "itemDeleted"
    /// The user tapped a row's insert control.
    public static let itemInserted = "itemInserted"
    /// The user moved a row (dragged its handle, or the keyboard alternative).
    public static let itemMoved = "itemMoved"
    /// The user tapped a row's detail (info) button.
    public static let itemAccessoryButtonTapped = "itemAccessoryButtonTapped"

    static let all: Set<String> = [itemSelected, itemDeselected, itemDeleted, itemInserted, itemMoved,
                                   itemAccessoryButtonTapped]
}

/// A mistake in using a ``TableView``.
public enum TableViewError: Error, Equatable, CustomStringConvertible {
    /// `dequeueReusableCell(withIdentifier:for:)` with an identifier nobody registered.
    case unregisteredCellIdentifier(tableID: String, identifier: String)
    /// A second `rx.items` binding while one is active (RxCocoa asserts).
    case dataSourceAlreadyBound(tableID: String)

    /// A readable message.
    public var description: String {
        switch self {
        case .unregisteredCellIdentifier(let tableID, let identifier):
            return "table '\(tableID)': no cell class registered for identifier '\(identifier)'"
        case .dataSourceAlreadyBound(let tableID):
            return "table '\(tableID)': an rx.items binding is already active; dispose it before binding another"
        }
    }
}
