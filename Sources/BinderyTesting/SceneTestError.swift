/// A test helper could not act as asked: what it looked for is not on the client's page.
public struct SceneTestError: Error, Equatable, CustomStringConvertible {
    /// What was missing.
    public let message: String

    init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
