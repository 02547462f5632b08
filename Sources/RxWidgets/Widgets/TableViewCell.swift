import Foundation
/// One row's look in a ``TableView``, like `UITableViewCell`: a text, a detail text and an
/// image laid out by ``CellStyle``, an accessory, and how selection shows.
///
/// A cell is a description, not a live view: the table turns it into a keyed row (see
/// PROTOCOL.md, "Table views") when its data source hands it over, and later changes to
/// the cell are not seen until the row is configured again (a reload, or an update of
/// its item). Subclass it for your own cells (`rx.items(cellIdentifier:cellType:)`); the
/// client renders the standard content.
open class TableViewCell: View {
    /// How the cell lays out its text, detail text and image, as `UITableViewCell.CellStyle`.
    public enum CellStyle: String, Sendable, CaseIterable {
        /// A text and an optional image; no detail text (`detailTextLabel` is `nil`).
        case `default`
        /// The text on the left, the detail text on the right (Settings).
        case value1
        /// The detail text on the left, small; the text beside it (Contacts).
        case value2
        /// The text with the detail text under it.
        case subtitle
    }

    /// The control at the end of a row, as `UITableViewCell.AccessoryType`.
    public enum AccessoryType: String, Sendable, CaseIterable {
        /// None.
        case none
        /// A chevron: tapping the row goes somewhere.
        case disclosureIndicator
        /// An info button and a chevron; the button sends `itemAccessoryButtonTapped`.
        case detailDisclosureButton
        /// A check mark.
        case checkmark
        /// An info button, which sends `itemAccessoryButtonTapped`.
        case detailButton

        /// Whether the accessory is a button the user can tap.
        public var isButton: Bool {
            self == .detailButton || self == .detailDisclosureButton
        }
    }

    /// How a selected row looks, as `UITableViewCell.SelectionStyle`.
    public enum SelectionStyle: String, Sendable, CaseIterable {
        /// No highlight (the row still sends `itemSelected`).
        case none
        /// Blue (before iOS 7); the client shows the default highlight.
        case blue
        /// Grey.
        case gray
        /// The standard highlight.
        case `default`
    }

    /// The editing control of a row, as `UITableViewCell.EditingStyle`.
    public enum EditingStyle: String, Sendable, CaseIterable {
        /// None.
        case none
        /// A delete control: `itemDeleted`.
        case delete
        /// An insert control: `itemInserted`.
        case insert
    }

    /// The cell's style, fixed at creation.
    public let style: CellStyle
    /// The identifier it was dequeued with, if any.
    public let reuseIdentifier: String?

    /// The main text's label. Always present, as UIKit's is for every style.
    public let textLabel: Label?
    /// The detail text's label: `nil` for ``CellStyle/default``, as in UIKit.
    public let detailTextLabel: Label?
    /// The image, shown before the text (not for ``CellStyle/value2``, as in UIKit).
    public let imageView: ImageView?

    /// The accessory. Default ``AccessoryType/none``.
    public var accessoryType: AccessoryType = .none
    /// The accessory shown while the table is editing. Default ``AccessoryType/none``.
    public var editingAccessoryType: AccessoryType = .none
    /// How selection shows. Default ``SelectionStyle/default``.
    public var selectionStyle: SelectionStyle = .default
    /// The editing control shown while the table is editing. Default ``EditingStyle/delete``
    /// (UIKit asks the delegate; a row that cannot be edited shows none).
    public var editingStyle: EditingStyle = .delete
    /// Whether the row shows a reorder handle while editing (when it can move). Default `true`.
    public var showsReorderControl: Bool = true

    /// A cell of `style`, dequeued under `reuseIdentifier`.
    public required init(style: CellStyle, reuseIdentifier: String?) {
        self.style = style
        self.reuseIdentifier = reuseIdentifier
        textLabel = Label()
        detailTextLabel = style == .default ? nil : Label()
        imageView = style == .value2 ? nil : ImageView()
        super.init(frame: .zero)
    }

    /// UIKit's archive initializer: Bindery has no archives, so this is the plain view.
    public required convenience init?(coder: NSCoder) {
        self.init(style: .default, reuseIdentifier: nil)
    }

    /// A ``CellStyle/default`` cell with no reuse identifier.
    public convenience init() {
        self.init(style: .default, reuseIdentifier: nil)
    }

    override public var kind: String { "tableViewCell" }

    /// Called before the cell is handed out again by `dequeueReusableCell`; Bindery makes
    /// a new cell for every row, so it is only called on cells you reuse yourself.
    open func prepareForReuse() {}

    /// The cell's row fields on the wire: `text`, `detailText`, `image` (a URL),
    /// `style`, `accessoryType`, `editingAccessoryType`, `selectionStyle`,
    /// `editingStyle`, `showsReorderControl`, `backgroundColor`; each only when it is
    /// not the default, to keep 10,000-row tables small.
    public var rowFields: [String: WidgetValue] {
        var fields: [String: WidgetValue] = [:]
        if let text = textLabel?.text { fields[RowField.text] = .string(text) }
        if let detail = detailTextLabel?.text { fields[RowField.detailText] = .string(detail) }
        if let image = imageView?.image { fields[RowField.image] = .string(image.url.absoluteString) }
        if style != .default { fields[RowField.style] = .string(style.rawValue) }
        if accessoryType != .none { fields[RowField.accessoryType] = .string(accessoryType.rawValue) }
        if editingAccessoryType != .none {
            fields[RowField.editingAccessoryType] = .string(editingAccessoryType.rawValue)
        }
        if selectionStyle != .default { fields[RowField.selectionStyle] = .string(selectionStyle.rawValue) }
        if editingStyle != .delete { fields[RowField.editingStyle] = .string(editingStyle.rawValue) }
        if !showsReorderControl { fields[RowField.showsReorderControl] = .bool(false) }
        if let backgroundColor { fields[PropertyName.backgroundColor] = .color(backgroundColor) }
        return fields
    }
}

/// The field names of a table's rows and sections on the wire (PROTOCOL.md).
enum RowField {
    static let text = "text"
    static let detailText = "detailText"
    static let image = "image"
    static let style = "style"
    static let accessoryType = "accessoryType"
    static let editingAccessoryType = "editingAccessoryType"
    static let selectionStyle = "selectionStyle"
    static let editingStyle = "editingStyle"
    static let showsReorderControl = "showsReorderControl"
    static let section = "section"
    static let canEdit = "canEdit"
    static let canMove = "canMove"
    static let header = "header"
    static let footer = "footer"
}
