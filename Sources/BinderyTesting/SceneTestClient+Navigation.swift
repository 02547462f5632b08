import Bindery

/// A navigation controller's back button (PROTOCOL.md, "Navigation"), with `seq` kept for you.
extension SceneTestClient {
    /// The keys of the navigation controller `target`'s screens, root first, as the
    /// client shows them.
    public func screens(of target: String = "navigation") -> [String] {
        guard case .rows(let screens)? = widget(target)?["screens"] else { return [] }
        return screens.map(\.id)
    }

    /// Taps the back button of the navigation controller `target` (`back`, naming the
    /// screen being left, so a second tap for the same screen pops nothing).
    ///
    /// - Throws: ``SceneTestError`` when the client shows no such navigation controller.
    @discardableResult
    public func goBack(in target: String = "navigation") throws -> SceneTestAnswer {
        guard let top = screens(of: target).last else {
            throw SceneTestError("no navigation controller '\(target)' with screens on the page")
        }
        return sendEvent("back", to: target, value: nil, row: top)
    }
}
