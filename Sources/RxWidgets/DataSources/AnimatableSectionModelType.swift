/// A section whose items, and itself, have identities, so changes can be diffed: as
/// RxDataSources' `AnimatableSectionModelType`.
public protocol AnimatableSectionModelType: SectionModelType, IdentifiableType
where Item: IdentifiableType, Item: Equatable {}
