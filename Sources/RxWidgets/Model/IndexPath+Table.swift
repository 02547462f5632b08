import Foundation

// UIKit adds `row`, `item` and `section` to Foundation's `IndexPath`; Linux's Foundation
// has no UIKit, so table code would not compile without these.
extension IndexPath {
    /// An index path for a table row: `[section, row]`, as UIKit's `IndexPath(row:section:)`.
    public init(row: Int, section: Int) {
        // Index by index: `init(indexes:)` would allocate an array for two integers.
        self.init(index: section)
        append(row)
    }

    /// An index path for a collection item: `[section, item]`, as UIKit's
    /// `IndexPath(item:section:)`.
    public init(item: Int, section: Int) {
        self.init(index: section)
        append(item)
    }

    /// The section: the first index (UIKit traps on an empty path; this does too).
    public var section: Int {
        get { self[0] }
        set { self[0] = newValue }
    }

    /// The row within the section: the second index.
    public var row: Int {
        get { self[1] }
        set { self[1] = newValue }
    }

    /// The item within the section (the same index as ``row``).
    public var item: Int {
        get { self[1] }
        set { self[1] = newValue }
    }
}
