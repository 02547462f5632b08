import BinderyProtocol
import Foundation
import RxCore
import RxWidgets

/// What a scene's factory gets to build its view controller: the scene's name, the
/// parameters it was opened with, the screen path to restore, the scheduler its timers
/// should use (so tests can run it in virtual time), and for shared scenes the number of
/// clients watching.
///
/// **Parameters** come from the page's query (`/scene/repo?id=42` → `["id": "42"]`),
/// carried by the WebSocket's query or the HTTP API's `parameters` (PROTOCOL.md,
/// "Scene parameters"). A factory reads them once, as Phoenix LiveView's `mount(params, …)`:
///
/// ```swift
/// registry.register("repo") { context in
///     let id = try context.requiredParameter("id", as: Int.self)  // 400 / error page if missing or not a number
///     guard let repo = Repo.find(id) else { throw SceneParameterError("id", "there is no repository \(id)") }
///     return RepoViewController(repo: repo)
/// }
/// ```
///
/// A shared scene is built once for everybody: its context has no parameters.
///
/// Loop-confined, like the widgets.
public final class SceneContext {
    /// The scene's registered name (`"colors"`).
    public let sceneName: String
    /// The scheduler for the scene's time-based work (`delay`, `interval`, `Action` work):
    /// `MainScheduler.instance` in the server, a `TestScheduler` under `BinderyTesting`.
    public let scheduler: SchedulerType
    /// The parameters the scene was opened with: the page URL's query (`?id=42` →
    /// `["id": "42"]`), without the reserved names (``reservedParameterNames``). Empty for a
    /// shared scene.
    public let parameters: [String: String]
    /// The screens to restore above the root, from the URL's `#/a/b` (each a pushed
    /// controller's `restorationIdentifier`). The server rebuilds the stack with
    /// ``ScreenRestoring`` before the first `scene` message; a scene need not read it.
    public let screenPath: [String]
    private var viewers = 0
    // Made on first subscription: most scenes never ask, and an idle session is small.
    private var viewersRelay: BehaviorRelay<Int>?

    /// Query names that are not scene parameters: `session` (the resume token), `screen`
    /// (the screen path), `scene` and `dev` (the page's own).
    public static let reservedParameterNames: Set<String> = ["session", "screen", "scene", "dev", "rows"]

    /// A context for `sceneName` on `scheduler`, opened with `parameters` and `screenPath`.
    public init(sceneName: String, scheduler: SchedulerType, parameters: [String: String] = [:], screenPath: [String] = []) {
        self.sceneName = sceneName
        self.scheduler = scheduler
        self.parameters = parameters
        self.screenPath = screenPath
    }

    /// A URL query's items as scene parameters: reserved names dropped, the first value
    /// of a repeated name kept.
    package static func parameters(fromQuery items: [(name: String, value: String)]) -> [String: String] {
        var parameters: [String: String] = [:]
        for (name, value) in items where !name.isEmpty && !reservedParameterNames.contains(name) && parameters[name] == nil {
            parameters[name] = value
        }
        return parameters
    }

    /// A screen path (`/chen-wei/notes`, the URL's hash without `#`) as its components,
    /// each percent-decoded (so an identifier may hold an encoded `/`).
    package static func screenPath(from text: String?) -> [String] {
        guard let text else { return [] }
        return text.split(separator: "/").compactMap { component in
            String(component).removingPercentEncoding.flatMap { $0.isEmpty ? nil : $0 }
        }
    }

    /// The current time by ``scheduler`` (virtual in tests).
    public var now: Date { scheduler.now }

    /// The parameter `name` read as `type` (`Int`, `Double`, `Bool`, `String`, any
    /// `LosslessStringConvertible`); nil when absent.
    ///
    /// - Throws: ``SceneParameterError`` when present but not a `type`
    ///   (`?id=abc` for an `Int`): the client gets `bad-parameter` (HTTP 400).
    public func parameter<Value: LosslessStringConvertible>(_ name: String, as type: Value.Type = String.self)
        throws(SceneParameterError) -> Value? {
        guard let text = parameters[name] else { return nil }
        guard let value = Value(text) else { throw .invalid(name, text, expected: type) }
        return value
    }

    /// The parameter `name` read as `type`.
    ///
    /// - Throws: ``SceneParameterError`` when absent or not a `type`.
    public func requiredParameter<Value: LosslessStringConvertible>(_ name: String, as type: Value.Type = String.self)
        throws(SceneParameterError) -> Value {
        guard let value = try parameter(name, as: type) else { throw .missing(name) }
        return value
    }

    /// How many live connections (WebSockets and event streams) watch this scene
    /// instance: the current count on subscription, then each change. For a shared scene
    /// that is everybody (`board`'s "N online"); for a per-connection scene, 0 or 1.
    public var viewerCount: Observable<Int> {
        if let viewersRelay { return viewersRelay.asObservable() }
        let relay = BehaviorRelay(value: viewers)
        viewersRelay = relay
        return relay.asObservable()
    }

    /// The current viewer count.
    public var currentViewerCount: Int { viewers }

    /// Called by the scene's host when connections come and go.
    package func setViewerCount(_ count: Int) {
        guard viewers != count else { return }
        viewers = count
        viewersRelay?.accept(count)
    }
}

/// A scene's parameters are missing or wrong (`/scene/repo?id=abc`). Thrown by a scene's
/// factory (``SceneContext/parameter(_:as:)`` throws it for you); the session is not
/// created, and the client gets `bad-parameter` with ``description``: HTTP 400 from
/// `POST /api/sessions`, an `error` message and close code 4400 on a WebSocket, which
/// the browser shows as the page's error.
public struct SceneParameterError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The parameter's name.
    public let name: String
    /// What is wrong with it (`"expected an integer, got 'abc'"`).
    public let reason: String

    /// The parameter `name` is wrong for `reason` (`SceneParameterError("id", "there is no repository 42")`).
    public init(_ name: String, _ reason: String) {
        self.name = name
        self.reason = reason
    }

    /// The required parameter `name` is absent.
    public static func missing(_ name: String) -> SceneParameterError {
        SceneParameterError(name, "required but missing")
    }

    /// The parameter `name` is `text`, which is not a `type`.
    public static func invalid<Value>(_ name: String, _ text: String, expected type: Value.Type) -> SceneParameterError {
        let kind: String
        switch type {
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type: kind = "an integer"
        case is Double.Type, is Float.Type: kind = "a number"
        case is Bool.Type: kind = "true or false"
        default: kind = "a \(type)"
        }
        return SceneParameterError(name, "expected \(kind), got '\(text)'")
    }

    /// `parameter 'id': expected an integer, got 'abc'`.
    public var description: String { "parameter '\(name)': \(reason)" }
}
