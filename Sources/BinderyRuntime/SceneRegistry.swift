import BinderyProtocol
import RxCore
import RxWidgets

/// A registered scene: its name, title, sharing and factory.
///
/// A reference underneath: every session and scene host holds one, and a copy is then a
/// pointer, not two strings and a closure.
public struct SceneDefinition {
    private final class Storage {
        let name: String
        let title: String
        let description: String?
        let sharing: SceneSharing
        let restoration: SceneRestoration
        let make: (SceneContext) throws -> ViewController

        init(name: String, title: String, description: String?, sharing: SceneSharing, restoration: SceneRestoration,
             make: @escaping (SceneContext) throws -> ViewController) {
            self.name = name
            self.title = title
            self.description = description
            self.sharing = sharing
            self.restoration = restoration
            self.make = make
        }
    }

    private let storage: Storage

    init(name: String, title: String, description: String? = nil, sharing: SceneSharing,
         restoration: SceneRestoration = .replay, make: @escaping (SceneContext) throws -> ViewController) {
        storage = Storage(name: name, title: title, description: description, sharing: sharing,
                          restoration: restoration, make: make)
    }

    /// The scene's name: its URL segment (`/scene/<name>`, `/ws/<name>`) and its name in
    /// the API. Letters, digits, `-` and `_`.
    public var name: String { storage.name }
    /// A human title for the scene list (`"Colours"`).
    public var title: String { storage.title }
    /// A sentence for the scene list and under the scene page's title, if any.
    public var description: String? { storage.description }
    /// Per-connection or shared.
    public var sharing: SceneSharing { storage.sharing }
    /// How a session is rebuilt on another process (with a store); `.replay` by default.
    public var restoration: SceneRestoration { storage.restoration }
    /// Builds a fresh view controller. Runs on the loop; may throw to refuse (the client
    /// sees the error; the server goes on).
    public var make: (SceneContext) throws -> ViewController { storage.make }
}

/// The scenes an app offers, by name.
///
/// Register every scene before the server starts:
///
/// ```swift
/// let registry = SceneRegistry()
/// registry.register("echo", title: "Echo") { EchoViewController() }
/// registry.register("board", title: "Board", sharing: .shared) { context in
///     BoardViewController(viewers: context.viewerCount)
/// }
/// // `/scene/repo?id=42`: the page's query is the context's parameters.
/// registry.register("repo", title: "Repository") { context in
///     RepoViewController(id: try context.requiredParameter("id", as: Int.self))
/// }
/// ```
///
/// Loop-confined after start-up (it is read on the loop thread).
public final class SceneRegistry {
    private var definitions: [SceneDefinition] = []
    private var byName: [String: Int] = [:]

    /// An empty registry.
    public init() {}

    /// Registers a scene whose factory takes a ``SceneContext`` (for the scheduler, the
    /// viewer count, or the parameters it was opened with: a ``SceneParameterError`` it
    /// throws refuses them with `bad-parameter`). A later registration under the same name
    /// replaces the earlier one.
    ///
    /// - Parameters:
    ///   - name: the scene's name; letters, digits, `-` and `_` only (trapped otherwise:
    ///     a programming error caught at start-up).
    ///   - title: the title shown in the scene list and as the page's heading; the name when nil.
    ///   - description: a sentence shown in the scene list and under the page's heading.
    ///   - sharing: `.perConnection` (default) or `.shared`.
    ///   - restoration: how a session moves to another process with a store (`--store`):
    ///     `.replay` (default), `.encoded` or `.none` (see ``SceneRestoration``).
    ///   - make: builds the view controller; its widgets are found as ``Scene`` describes.
    public func register(_ name: String, title: String? = nil, description: String? = nil,
                         sharing: SceneSharing = .perConnection, restoration: SceneRestoration = .replay,
                         make: @escaping (SceneContext) throws -> ViewController) {
        precondition(Self.isValidName(name), "scene name must be letters, digits, '-' or '_': '\(name)'")
        let definition = SceneDefinition(name: name, title: title ?? name, description: description,
                                         sharing: sharing, restoration: restoration, make: make)
        if let index = byName[name] {
            definitions[index] = definition
        } else {
            byName[name] = definitions.count
            definitions.append(definition)
        }
    }

    /// Registers a scene whose factory needs no context.
    public func register(_ name: String, title: String? = nil, description: String? = nil,
                         sharing: SceneSharing = .perConnection, restoration: SceneRestoration = .replay,
                         make: @escaping () throws -> ViewController) {
        register(name, title: title, description: description, sharing: sharing, restoration: restoration) { (_: SceneContext) in
            try make()
        }
    }

    /// The same as ``register(_:title:description:sharing:make:)-(_,_,_,_,(SceneContext)->ViewController)``,
    /// with a labelled name.
    public func register(name: String, title: String? = nil, sharing: SceneSharing = .perConnection,
                         make: @escaping (SceneContext) throws -> ViewController) {
        register(name, title: title, sharing: sharing, make: make)
    }

    /// Every registered scene, in registration order.
    public var scenes: [SceneDefinition] { definitions }

    /// The scene named `name`, if registered.
    public func scene(named name: String) -> SceneDefinition? {
        byName[name].map { definitions[$0] }
    }

    /// Whether `name` is a valid scene name.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64 && name.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }
}
