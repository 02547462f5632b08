/// A section with an identity and identifiable, equatable items, as RxDataSources'
/// `AnimatableSectionModel`: what ``RxTableViewSectionedAnimatedDataSource`` diffs.
public struct AnimatableSectionModel<Section: IdentifiableType, ItemType: IdentifiableType & Equatable>
    : AnimatableSectionModelType, CustomStringConvertible {
    /// The items' type.
    public typealias Item = ItemType
    /// The section's model.
    public var model: Section
    /// The items, in order.
    public var items: [Item]

    /// A section of `model` with `items`.
    public init(model: Section, items: [ItemType]) {
        self.model = model
        self.items = items
    }

    /// A section with `original`'s model and `items`.
    public init(original: AnimatableSectionModel, items: [ItemType]) {
        self.model = original.model
        self.items = items
    }

    /// The model's identity.
    public var identity: Section.Identity { model.identity }

    /// `HashableSectionModel(model: ..., items: [...])`.
    public var description: String { "HashableSectionModel(model: \"\(model)\", items: \(items))" }
}

extension AnimatableSectionModel: Equatable where Section: Equatable {}
