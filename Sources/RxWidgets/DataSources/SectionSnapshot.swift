import Foundation

/// The sections a sectioned data source shows, with the user's moves applied: what
/// ``TableViewSectionedDataSource`` and ``CollectionViewSectionedDataSource`` keep (as
/// RxDataSources' `SectionedViewDataSource` keeps for both). Loop-confined, as its owner.
struct SectionSnapshot<Section: SectionModelType> {
    /// Each section's model and its items as shown (items move; the model stays).
    private var sections: [(section: Section, items: [Section.Item])] = []

    /// The current sections (with any moves the user made).
    var sectionModels: [Section] {
        sections.map { Section(original: $0.section, items: $0.items) }
    }

    /// The number of sections.
    var count: Int { sections.count }

    /// The section at `section`.
    subscript(section: Int) -> Section {
        Section(original: sections[section].section, items: sections[section].items)
    }

    /// The item at `indexPath` (settable: replaces it in the model).
    subscript(indexPath: IndexPath) -> Section.Item {
        get { sections[indexPath.section].items[indexPath.item] }
        set { sections[indexPath.section].items[indexPath.item] = newValue }
    }

    /// Whether there is an item at `indexPath`.
    func contains(_ indexPath: IndexPath) -> Bool {
        indexPath.count == 2 && sections.indices.contains(indexPath.section)
            && sections[indexPath.section].items.indices.contains(indexPath.item)
    }

    /// The number of items in `section` (0 for a section that does not exist).
    func count(inSection section: Int) -> Int {
        sections.indices.contains(section) ? sections[section].items.count : 0
    }

    /// Replaces the sections.
    mutating func set(_ sections: [Section]) {
        self.sections = sections.map { ($0, $0.items) }
    }

    /// Moves an item, as the user moved it.
    mutating func moveItem(at source: IndexPath, to destination: IndexPath) {
        let item = sections[source.section].items.remove(at: source.item)
        sections[destination.section].items.insert(item, at: destination.item)
    }
}

extension Array where Element: AnimatableSectionModelType {
    /// Whether no two sections, and no two items of all sections, share an identity: the
    /// animated data sources diff only then (as RxDataSources, after its debug assertion).
    var identitiesAreUnique: Bool {
        var sectionIdentities = Set<Element.Identity>()
        var itemIdentities = Set<Element.Item.Identity>()
        for section in self {
            guard sectionIdentities.insert(section.identity).inserted else { return false }
            for item in section.items where !itemIdentities.insert(item.identity).inserted {
                return false
            }
        }
        return true
    }
}

/// The model of the item at `indexPath` of a one-section array data source
/// (`RxTableViewReactiveArrayDataSource`, `RxCollectionViewReactiveArrayDataSource`).
///
/// - Throws: ``RxDataSourceError/itemsNotYetBound`` before the first array (`models` nil),
///   ``RxDataSourceError/outOfBounds(indexPath:)`` for no such item.
func arrayModel<Element>(_ models: [Element]?, at indexPath: IndexPath) throws -> Element {
    guard let models else { throw RxDataSourceError.itemsNotYetBound }
    guard indexPath.count == 2, indexPath.section == 0, models.indices.contains(indexPath.item) else {
        throw RxDataSourceError.outOfBounds(indexPath: indexPath)
    }
    return models[indexPath.item]
}
