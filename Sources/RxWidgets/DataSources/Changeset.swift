/// One step of the changes between two versions of sectioned data, as RxDataSources'
/// `Changeset` (see ``Diff``).
public struct Changeset<Section: SectionModelType> {
    /// Whether the step is "reload everything" (the first data, or a fallback).
    public let reloadData: Bool
    /// The sections before the step.
    public let originalSections: [Section]
    /// The sections after the step.
    public let finalSections: [Section]
    /// Inserted sections, by index after the step.
    public let insertedSections: [Int]
    /// Deleted sections, by index before the step.
    public let deletedSections: [Int]
    /// Moved sections: index after deletions → index after the step.
    public let movedSections: [(from: Int, to: Int)]
    /// Sections whose model changed, by index.
    public let updatedSections: [Int]
    /// Inserted items, by path after the step.
    public let insertedItems: [ItemPath]
    /// Deleted items, by path before the step.
    public let deletedItems: [ItemPath]
    /// Moved items: path after deletions → path after the step.
    public let movedItems: [(from: ItemPath, to: ItemPath)]
    /// Items whose value changed (same identity), by path before the step.
    public let updatedItems: [ItemPath]

    /// A step.
    public init(reloadData: Bool = false, originalSections: [Section] = [], finalSections: [Section] = [],
                insertedSections: [Int] = [], deletedSections: [Int] = [], movedSections: [(from: Int, to: Int)] = [],
                updatedSections: [Int] = [], insertedItems: [ItemPath] = [], deletedItems: [ItemPath] = [],
                movedItems: [(from: ItemPath, to: ItemPath)] = [], updatedItems: [ItemPath] = []) {
        self.reloadData = reloadData
        self.originalSections = originalSections
        self.finalSections = finalSections
        self.insertedSections = insertedSections
        self.deletedSections = deletedSections
        self.movedSections = movedSections
        self.updatedSections = updatedSections
        self.insertedItems = insertedItems
        self.deletedItems = deletedItems
        self.movedItems = movedItems
        self.updatedItems = updatedItems
    }

    /// A step that reloads everything with `sections`.
    public static func initialValue(_ sections: [Section]) -> Changeset<Section> {
        Changeset(reloadData: true, finalSections: sections,
                  insertedSections: Array(sections.indices))
    }
}
