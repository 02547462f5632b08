import Foundation
/// One item's look in a ``CollectionView``, like `UICollectionViewCell`. UIKit's cell is
/// an empty `contentView`; Bindery's client draws a standard tile, so the cell has a
/// text, a detail text under it and an image above it (each optional), and a background
/// colour. Subclass it for `rx.items(cellIdentifier:cellType:)`.
///
/// A cell is a description: the collection view turns it into a keyed row when its data
/// source hands it over (PROTOCOL.md, "Collection views").
open class CollectionViewCell: View {
    /// The identifier it was dequeued with, if any.
    public let reuseIdentifier: String?
    /// The tile's main text.
    public let textLabel = Label()
    /// A smaller text under the main one.
    public let detailTextLabel = Label()
    /// The tile's picture, above the texts.
    public let imageView = ImageView()

    /// A cell dequeued under `reuseIdentifier`.
    public required init(reuseIdentifier: String?) {
        self.reuseIdentifier = reuseIdentifier
        super.init(frame: .zero)
    }

    /// UIKit's archive initializer: Bindery has no archives, so this is the plain view.
    public required convenience init?(coder: NSCoder) {
        self.init(reuseIdentifier: nil)
    }

    /// A cell with no reuse identifier.
    public convenience init() {
        self.init(reuseIdentifier: nil)
    }

    override public var kind: String { "collectionViewCell" }

    /// Called before a cell you reuse yourself is handed out again (Bindery makes a new
    /// cell for every item).
    open func prepareForReuse() {}

    /// The item's fields on the wire: `text`, `detailText`, `image` (a URL),
    /// `backgroundColor`, each only when set.
    public var itemFields: [String: WidgetValue] {
        var fields: [String: WidgetValue] = [:]
        if let text = textLabel.text { fields[RowField.text] = .string(text) }
        if let detail = detailTextLabel.text { fields[RowField.detailText] = .string(detail) }
        if let image = imageView.image { fields[RowField.image] = .string(image.url.absoluteString) }
        if let backgroundColor { fields[PropertyName.backgroundColor] = .color(backgroundColor) }
        return fields
    }
}

/// A section's header or footer in a ``CollectionView``, as `UICollectionReusableView`
/// handed out for a supplementary element: Bindery shows its ``textLabel``'s text as
/// the section's title.
open class CollectionReusableView: View {
    /// The identifier it was dequeued with, if any.
    public let reuseIdentifier: String?
    /// The title.
    public let textLabel = Label()

    /// A view dequeued under `reuseIdentifier`.
    public required init(reuseIdentifier: String?) {
        self.reuseIdentifier = reuseIdentifier
        super.init(frame: .zero)
    }

    /// UIKit's archive initializer: Bindery has no archives, so this is the plain view.
    public required convenience init?(coder: NSCoder) {
        self.init(reuseIdentifier: nil)
    }

    /// A view with no reuse identifier.
    public convenience init() {
        self.init(reuseIdentifier: nil)
    }

    override public var kind: String { "collectionReusableView" }
}
