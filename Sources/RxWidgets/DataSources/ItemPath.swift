/// An item's place in sectioned data, as RxDataSources' `ItemPath`.
public struct ItemPath: Hashable, Sendable, CustomStringConvertible {
    /// The section's index.
    public let sectionIndex: Int
    /// The item's index within its section.
    public let itemIndex: Int

    /// A path.
    public init(sectionIndex: Int, itemIndex: Int) {
        self.sectionIndex = sectionIndex
        self.itemIndex = itemIndex
    }

    /// `(section, item)`.
    public var description: String { "(\(sectionIndex), \(itemIndex))" }
}
