import Foundation

/// An image, known by its URL: the server never decodes pixels, the client loads it.
/// Stands in for `UIImage` (`UIImage(named:)` ports as ``init(named:)``).
public struct Image: Hashable, Sendable {
    /// Where the client loads the image from (absolute, or relative to the page).
    public let url: URL

    /// The image at `url`.
    public init(url: URL) {
        self.url = url
    }

    /// The image named `name`, served from the app's static files as `images/<name>`;
    /// `nil` for an empty name or one that is not a valid URL path.
    public init?(named name: String) {
        guard !name.isEmpty,
              let encoded = name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed),
              let url = URL(string: "images/" + encoded)
        else { return nil }
        self.url = url
    }
}
