import Foundation
import RxCore

/// Items in sections laid out as a grid, like `UICollectionView` with a flow layout:
/// items come from a ``CollectionViewDataSource`` (usually installed by `rx.items`),
/// users select and move them, and the collection reports it through `rx`
/// (`itemSelected`, `itemDeselected`, `itemMoved`), as RxCocoa does.
///
/// On the wire (PROTOCOL.md, "Collection views") it is a table's shape: `sections` and
/// `items` (every item of every section in one keyed list, each naming its section),
/// `selectedItems` (keys), and the layout's numbers. Item events name an item by key.
///
/// Loop-confined, like every widget.
open class CollectionView: View, WidgetEventReceiver {
    /// The kind of a section header, as `UICollectionView.elementKindSectionHeader`.
    public static let elementKindSectionHeader = "UICollectionElementKindSectionHeader"
    /// The kind of a section footer, as `UICollectionView.elementKindSectionFooter`.
    public static let elementKindSectionFooter = "UICollectionElementKindSectionFooter"

    /// Where an item is scrolled to, as `UICollectionView.ScrollPosition` (the client decides).
    public struct ScrollPosition: OptionSet, Sendable {
        /// The raw bits.
        public let rawValue: UInt
        /// A position.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Wherever it is.
        public static let none: ScrollPosition = []
        /// At the top.
        public static let top = ScrollPosition(rawValue: 1 << 0)
        /// Vertically centred.
        public static let centeredVertically = ScrollPosition(rawValue: 1 << 1)
        /// At the bottom.
        public static let bottom = ScrollPosition(rawValue: 1 << 2)
        /// At the left.
        public static let left = ScrollPosition(rawValue: 1 << 3)
        /// Horizontally centred.
        public static let centeredHorizontally = ScrollPosition(rawValue: 1 << 4)
        /// At the right.
        public static let right = ScrollPosition(rawValue: 1 << 5)
    }

    /// The layout (its changes are sent to clients). See ``CollectionViewFlowLayout``.
    public private(set) var collectionViewLayout: CollectionViewLayout

    /// Where items come from; held weakly, as in UIKit (an `rx.items` binding keeps its
    /// data source alive). Call ``reloadData()`` after setting it.
    public weak var dataSource: CollectionViewDataSource?

    /// Whether items can be selected. Default `true`.
    public var allowsSelection: Bool = true {
        didSet {
            if allowsSelection != oldValue {
                changed(CollectionPropertyName.allowsSelection, .bool(oldValue), .bool(allowsSelection))
            }
        }
    }

    /// Whether several items can be selected (tapping a selected one deselects it).
    /// Default `false`.
    public var allowsMultipleSelection: Bool = false {
        didSet {
            if allowsMultipleSelection != oldValue {
                changed(CollectionPropertyName.allowsMultipleSelection, .bool(oldValue), .bool(allowsMultipleSelection))
            }
        }
    }

    /// The sections, the items and the selection, by key.
    let items = KeyedItems(selectionProperty: CollectionPropertyName.selectedItems, noun: "item", keyName: "an item key")

    /// The items as the client sees them, flat, in order (the `items` property).
    public var rows: [ListRow] { items.content.rows }
    /// The sections as the client sees them (the `sections` property).
    public var sectionRows: [ListRow] { items.content.sections }

    private var registeredCells: [String: CollectionViewCell.Type] = [:]
    private var registeredViews: [String: CollectionReusableView.Type] = [:]

    let itemSelectedHub = EventHub<IndexPath>()
    let itemDeselectedHub = EventHub<IndexPath>()
    let itemMovedHub = EventHub<ItemMovedEvent>()

    /// The data source an `rx.items` binding installed (kept for `rx.model(at:)`).
    var rxDataSource: AnyObject?

    /// A collection view laid out by `layout`, as `UICollectionView(frame:collectionViewLayout:)`
    /// (the frame is the browser's to choose).
    public init(frame: CGRect = .zero, collectionViewLayout layout: CollectionViewLayout) {
        collectionViewLayout = layout
        super.init(frame: frame)
        layout.collectionView = self
    }

    /// UIKit's archive initializer: Bindery has no archives, so this is the plain view.
    public required convenience init?(coder: NSCoder) {
        self.init(collectionViewLayout: CollectionViewFlowLayout())
    }

    /// A collection view with a default ``CollectionViewFlowLayout``.
    public convenience init() {
        self.init(collectionViewLayout: CollectionViewFlowLayout())
    }

    override public var kind: String { "collectionView" }

    /// Replaces the layout.
    public func setCollectionViewLayout(_ layout: CollectionViewLayout, animated: Bool) {
        collectionViewLayout.collectionView = nil
        collectionViewLayout = layout
        layout.collectionView = self
        layoutDidChange()
        reloadSupplementaryViews()
    }

    /// Records the layout's properties that changed.
    func layoutDidChange() {
        guard tree != nil else { return }
        var old = lastLayout
        var new: [String: WidgetValue] = [:]
        collectionViewLayout.collectProperties(into: &new)
        for (name, value) in new.sorted(by: { $0.key < $1.key }) where old[name] != value {
            changed(name, old[name] ?? .null, value)
            old[name] = value
        }
        lastLayout = new
    }

    private var lastLayout: [String: WidgetValue] = [:]

    /// Asks the data source for the sections' headers and footers again (the layout's
    /// reference sizes changed), keeping the items.
    func reloadSupplementaryViews() {
        guard let dataSource else { return }
        var content = items.content
        content.sections = sectionRows.enumerated().map { index, section in
            TableContent.section(key: section.id, index: index, of: self, from: dataSource)
        }
        setContent(content, keepingSelection: true)
    }

    // MARK: - Cells

    /// Registers `cellClass` for `identifier`.
    public func register(_ cellClass: CollectionViewCell.Type?, forCellWithReuseIdentifier identifier: String) {
        registeredCells[identifier] = cellClass
    }

    /// Registers `viewClass` for headers or footers (`elementKind`) dequeued with `identifier`.
    public func register(_ viewClass: CollectionReusableView.Type?, forSupplementaryViewOfKind elementKind: String,
                         withReuseIdentifier identifier: String) {
        registeredViews["\(elementKind)/\(identifier)"] = viewClass
    }

    /// A new cell of the class registered for `identifier`. UIKit raises an exception for
    /// an unregistered identifier; this reports it to `Hooks.bindingErrorHandler` and
    /// returns a plain cell, so one mistake cannot stop a server.
    public func dequeueReusableCell(withReuseIdentifier identifier: String, for indexPath: IndexPath) -> CollectionViewCell {
        if let cellClass = registeredCells[identifier] { return cellClass.init(reuseIdentifier: identifier) }
        Hooks.bindingErrorHandler(CollectionViewError.unregisteredIdentifier(collectionViewID: id, identifier: identifier))
        return CollectionViewCell(reuseIdentifier: identifier)
    }

    /// A new header or footer of the class registered for `elementKind` and `identifier`
    /// (an unregistered one is reported as for cells, and a plain view returned).
    public func dequeueReusableSupplementaryView(ofKind elementKind: String, withReuseIdentifier identifier: String,
                                                 for indexPath: IndexPath) -> CollectionReusableView {
        if let viewClass = registeredViews["\(elementKind)/\(identifier)"] { return viewClass.init(reuseIdentifier: identifier) }
        Hooks.bindingErrorHandler(CollectionViewError.unregisteredIdentifier(collectionViewID: id, identifier: identifier))
        return CollectionReusableView(reuseIdentifier: identifier)
    }

    // MARK: - Items

    /// The number of sections.
    public var numberOfSections: Int { items.content.sections.count }

    /// The number of items in `section` (0 for a section that does not exist).
    public func numberOfItems(inSection section: Int) -> Int {
        items.count(inSection: section)
    }

    /// Asks the data source for everything again, as UIKit's `reloadData` (which clears
    /// the selection).
    public func reloadData() {
        items.forgetSelection()
        setContent(TableContent.load(from: dataSource, for: self), keepingSelection: false)
    }

    /// Replaces the items with `content`; keeps the selection of items whose keys remain
    /// when `keepingSelection` (a batch update), clears it otherwise.
    func setContent(_ content: TableContent, keepingSelection: Bool) {
        items.replace(with: content, keepingSelection: keepingSelection, on: self)
    }

    /// The key of the item at `indexPath`, if there is one.
    public func itemKey(at indexPath: IndexPath) -> String? {
        items.key(at: indexPath)
    }

    /// The index path of the item keyed `key`, if there is one.
    public func indexPath(forItemKey key: String) -> IndexPath? {
        items.indexPath(forKey: key)
    }

    // MARK: - Selection

    /// The selected items' index paths, in the order they were selected; `nil` when none
    /// is selected.
    public var indexPathsForSelectedItems: [IndexPath]? {
        let paths = items.selectedKeys.compactMap(indexPath(forItemKey:))
        return paths.isEmpty ? nil : paths
    }

    /// The selected items' keys (the `selectedItems` property).
    public var selectedItemKeys: [String] { items.selectedKeys }

    /// Selects the item at `indexPath` (with single selection, only it), or clears the
    /// selection for `nil`. Sends no `rx` event, as UIKit calls no delegate for it.
    public func selectItem(at indexPath: IndexPath?, animated: Bool, scrollPosition: ScrollPosition) {
        items.select(at: indexPath, multiple: allowsMultipleSelection, on: self)
    }

    /// Deselects the item at `indexPath`. Sends no `rx` event.
    public func deselectItem(at indexPath: IndexPath, animated: Bool) {
        guard let key = itemKey(at: indexPath) else { return }
        items.deselect(key, on: self)
    }

    // MARK: - Snapshot

    override func collectProperties(into properties: inout [String: WidgetValue]) {
        super.collectProperties(into: &properties)
        properties[CollectionPropertyName.sections] = .rows(sectionRows)
        properties[PropertyName.items] = .rows(rows)
        properties[CollectionPropertyName.selectedItems] = .strings(items.selectedKeys)
        properties[CollectionPropertyName.allowsSelection] = .bool(allowsSelection)
        properties[CollectionPropertyName.allowsMultipleSelection] = .bool(allowsMultipleSelection)
        var layout: [String: WidgetValue] = [:]
        collectionViewLayout.collectProperties(into: &layout)
        properties.merge(layout) { _, new in new }
        lastLayout = layout
    }

    // MARK: - User events (the server's side)

    /// The item events a client may send (PROTOCOL.md, "Collection views").
    public var widgetEventNames: Set<String> { CollectionEventName.all }

    /// Performs a user's item action with UIKit's rules and order; see
    /// ``WidgetEventReceiver/receive(_:)``.
    public func receive(_ event: WidgetEvent) throws(WidgetInputError) {
        let (key, flat, indexPath) = try items.target(of: event, in: self)
        switch event.name {
        case CollectionEventName.itemSelected:
            guard allowsSelection else {
                throw WidgetInputError(.disabled, "\(kind) '\(id)': selection is off")
            }
            // As UIKit: the other item is deselected first, and says so.
            let deselected = items.select(key, multiple: allowsMultipleSelection, on: self).compactMap(indexPath(forItemKey:))
            for path in deselected { itemDeselectedHub.send(path) }
            itemSelectedHub.send(indexPath)
        case CollectionEventName.itemDeselected:
            // An item that is not selected cannot be deselected: nothing happens.
            guard items.deselect(key, on: self) else { return }
            itemDeselectedHub.send(indexPath)
        default:  // itemMoved
            try userMove(key: key, from: flat, at: indexPath, event: event)
        }
    }

    private func userMove(key: String, from flat: Int, at source: IndexPath, event: WidgetEvent) throws(WidgetInputError) {
        guard dataSource?.collectionView(self, canMoveItemAt: source) ?? false else {
            throw WidgetInputError(.disabled, "\(kind) '\(id)': item '\(key)' cannot move")
        }
        let destination = try items.moveDestination(of: event, from: source, in: self)
        dataSource?.collectionView(self, moveItemAt: source, to: destination)
        // UIKit has moved the item on screen already: move ours to match, no reload.
        items.move(from: flat, at: source, to: destination, on: self)
        itemMovedHub.send((source, destination))
    }
}

/// The collection view's wire property names (beside `items`).
enum CollectionPropertyName {
    static let sections = "sections"
    static let selectedItems = "selectedItems"
    static let allowsSelection = "allowsSelection"
    static let allowsMultipleSelection = "allowsMultipleSelection"
    static let itemWidth = "itemWidth"
    static let itemHeight = "itemHeight"
    static let minimumInteritemSpacing = "minimumInteritemSpacing"
    static let minimumLineSpacing = "minimumLineSpacing"
    static let scrollDirection = "scrollDirection"
}

/// The item events a client sends to a collection view (RxCocoa's names).
public enum CollectionEventName {
    /// The user tapped an item: it is selected, `rx.itemSelected` fires.
    public static let itemSelected = "itemSelected"
    /// The user tapped a selected item of a multiple-selection collection.
    public static let itemDeselected = "itemDeselected"
    /// The user moved an item (the keyboard's Alt+arrows, or a drag).
    public static let itemMoved = "itemMoved"

    static let all: Set<String> = [itemSelected, itemDeselected, itemMoved]
}

/// A mistake in using a ``CollectionView``.
public enum CollectionViewError: Error, Equatable, CustomStringConvertible {
    /// A cell or supplementary view dequeued with an identifier nobody registered.
    case unregisteredIdentifier(collectionViewID: String, identifier: String)
    /// A second `rx.items` binding while one is active (RxCocoa asserts).
    case dataSourceAlreadyBound(collectionViewID: String)

    /// A readable message.
    public var description: String {
        switch self {
        case .unregisteredIdentifier(let viewID, let identifier):
            return "collection view '\(viewID)': nothing registered for identifier '\(identifier)'"
        case .dataSourceAlreadyBound(let viewID):
            return "collection view '\(viewID)': an rx.items binding is already active; dispose it before binding another"
        }
    }
}
