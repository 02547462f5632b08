import BinderyCluster
import BinderyProtocol
import BinderyRuntime
import Foundation

/// The browser client shipped inside the Bindery library (the `Client` resource:
/// `bindery.js`, `bindery.css`, `index.html`, `scene.html`), so an app needs no copy of it.
///
/// ``BinderyApp`` serves it by default, under the app's own ``BinderyApp/Configuration/publicDirectory``
/// (the app's files win). A deployed binary needs its `Bindery_Bindery.resources`
/// directory beside it (SwiftPM puts it there in `.build/<configuration>/`).
public enum BrowserClient {
    /// The client's directory, resolved through the library's resource bundle.
    public static var directory: String {
        // Beside the executable first: a copied binary with its resources needs no build folder.
        let besideExecutable = Bundle.main.bundleURL
            .appendingPathComponent("Bindery_Bindery.resources").appendingPathComponent("Client").path
        if FileManager.default.fileExists(atPath: besideExecutable) { return besideExecutable }
        return Bundle.module.bundleURL.appendingPathComponent("Client").path
    }
}
