/// A section: a model (often its title) and its items, as RxDataSources' `SectionModel`:
///
/// ```swift
/// let sections = [SectionModel(model: "Odd", items: [1, 3]), SectionModel(model: "Even", items: [2])]
/// ```
public struct SectionModel<Section, ItemType>: SectionModelType, CustomStringConvertible {
    /// The items' type.
    public typealias Item = ItemType
    /// The section's model.
    public var model: Section
    /// The items, in order.
    public var items: [Item]

    /// A section of `model` with `items`.
    public init(model: Section, items: [Item]) {
        self.model = model
        self.items = items
    }

    /// A section with `original`'s model and `items`.
    public init(original: SectionModel<Section, Item>, items: [Item]) {
        self.model = original.model
        self.items = items
    }

    /// The section's identity: its model.
    public var identity: Section { model }

    /// `model > [items]`.
    public var description: String { "\(model) > \(items)" }
}

extension SectionModel: Equatable where Section: Equatable, ItemType: Equatable {}
