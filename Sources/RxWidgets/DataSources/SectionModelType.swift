/// A section of a sectioned data source: its items, and a way to make a copy with other
/// items, as RxDataSources' `SectionModelType`.
public protocol SectionModelType {
    /// The type of the section's items.
    associatedtype Item

    /// The section's items, in order.
    var items: [Item] { get }

    /// A section like `original` holding `items`.
    init(original: Self, items: [Item])
}
