import Foundation

/// How a ``CollectionView`` places its items, as `UICollectionViewLayout`. Bindery's
/// client draws one layout, the flow layout's grid: use ``CollectionViewFlowLayout``.
open class CollectionViewLayout {
    /// The collection view using this layout (set when it is given one).
    public internal(set) weak var collectionView: CollectionView?

    /// A layout used by no collection view yet.
    public init() {}

    /// Tells the collection view that the layout changed, so clients redraw it.
    public func invalidateLayout() {
        collectionView?.layoutDidChange()
    }

    /// The layout's wire properties (PROTOCOL.md, "Collection views").
    func collectProperties(into properties: inout [String: WidgetValue]) {}

    /// Whether sections have supplementary views of `kind` (the data source is asked for
    /// them only then). None here.
    func showsSupplementaryViews(ofKind kind: String) -> Bool { false }
}

/// A grid of equal items filling lines, as `UICollectionViewFlowLayout`: `itemSize`
/// and the minimum spacings become a CSS grid in the browser (columns of `itemSize.width`,
/// as many as fit; `minimumInteritemSpacing` between columns, `minimumLineSpacing` between
/// lines).
open class CollectionViewFlowLayout: CollectionViewLayout {
    /// The direction lines run, as `UICollectionView.ScrollDirection`.
    public enum ScrollDirection: String, Sendable {
        /// Items fill a line left to right; lines stack downwards (the default).
        case vertical
        /// Items fill a column top to bottom; columns run to the right.
        case horizontal
    }

    /// Each item's size, in points (CSS pixels). Default 50 × 50, as UIKit's.
    public var itemSize = CGSize(width: 50, height: 50) {
        didSet { if itemSize != oldValue { invalidateLayout() } }
    }

    /// The least space between items of a line. Default 10.
    public var minimumInteritemSpacing: CGFloat = 10 {
        didSet { if minimumInteritemSpacing != oldValue { invalidateLayout() } }
    }

    /// The least space between lines. Default 10.
    public var minimumLineSpacing: CGFloat = 10 {
        didSet { if minimumLineSpacing != oldValue { invalidateLayout() } }
    }

    /// A section header's size: the data source is asked for headers
    /// (`viewForSupplementaryElementOfKind` with ``CollectionView/elementKindSectionHeader``)
    /// only when it is not zero, as in UIKit. Default `.zero`.
    public var headerReferenceSize: CGSize = .zero {
        didSet { if headerReferenceSize != oldValue { collectionView?.reloadSupplementaryViews() } }
    }

    /// A section footer's size; footers are asked for only when it is not zero. Default `.zero`.
    public var footerReferenceSize: CGSize = .zero {
        didSet { if footerReferenceSize != oldValue { collectionView?.reloadSupplementaryViews() } }
    }

    /// The scroll direction. Default ``ScrollDirection/vertical``.
    public var scrollDirection: ScrollDirection = .vertical {
        didSet { if scrollDirection != oldValue { invalidateLayout() } }
    }

    /// A flow layout with UIKit's defaults.
    public override init() {
        super.init()
    }

    override func showsSupplementaryViews(ofKind kind: String) -> Bool {
        let size = kind == CollectionView.elementKindSectionFooter ? footerReferenceSize : headerReferenceSize
        return size.width > 0 || size.height > 0
    }

    override func collectProperties(into properties: inout [String: WidgetValue]) {
        properties[CollectionPropertyName.itemWidth] = .number(Double(itemSize.width))
        properties[CollectionPropertyName.itemHeight] = .number(Double(itemSize.height))
        properties[CollectionPropertyName.minimumInteritemSpacing] = .number(Double(minimumInteritemSpacing))
        properties[CollectionPropertyName.minimumLineSpacing] = .number(Double(minimumLineSpacing))
        properties[CollectionPropertyName.scrollDirection] = .string(scrollDirection.rawValue)
    }
}
