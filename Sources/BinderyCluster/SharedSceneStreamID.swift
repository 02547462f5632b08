/// A stream entry id (`<ms>-<seq>`), ordered as Redis orders them. Pure.
package struct SharedSceneStreamID: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// The milliseconds part (the clock of whoever added the entry).
    package let milliseconds: UInt64
    /// The sequence within that millisecond.
    package let sequence: UInt64

    /// The id `text` names; nil unless it is `<ms>-<seq>`.
    package init?(_ text: String) {
        let parts = text.split(separator: "-", maxSplits: 1)
        guard parts.count == 2, let milliseconds = UInt64(parts[0]), let sequence = UInt64(parts[1]) else { return nil }
        self.milliseconds = milliseconds
        self.sequence = sequence
    }

    /// The id from its parts.
    package init(milliseconds: UInt64, sequence: UInt64) {
        self.milliseconds = milliseconds
        self.sequence = sequence
    }

    /// `<ms>-<seq>`.
    package var description: String { "\(milliseconds)-\(sequence)" }

    package static func < (lhs: SharedSceneStreamID, rhs: SharedSceneStreamID) -> Bool {
        (lhs.milliseconds, lhs.sequence) < (rhs.milliseconds, rhs.sequence)
    }
}
