import Bindery
import RxCore
import RxWidgets

/// One demo scene: its contract name, how it is shared, and how to build an instance.
public struct DemoSceneDefinition: Sendable {
    /// The scene's name in URLs and the API (`/ws/colors`, `{"scene": "colors"}`).
    public let name: String
    /// A human title for the index page.
    public let title: String
    /// `true` for a shared scene (one instance for all clients), `false` for one
    /// instance per session.
    public let isShared: Bool
    /// Builds an instance (view not loaded yet: the server or test client loads it).
    public let make: @Sendable (DemoEnvironment) -> any Scene
}

/// The demo app's scenes, independent of the server, so the server registers them and
/// tests build them the same way.
public enum DemoScenes {
    /// Every demo scene, in the index page's order.
    public static let all: [DemoSceneDefinition] = [
        DemoSceneDefinition(name: "colors", title: "Colours: custom Binder and ControlProperty", isShared: false) { _ in
            ColorsViewController()
        },
        DemoSceneDefinition(name: "counter", title: "Counter: rx.countText", isShared: false) { _ in
            CounterViewController()
        },
        DemoSceneDefinition(name: "date", title: "Date: a Binder<Date>", isShared: false) { environment in
            DateViewController(now: environment.now)
        },
        DemoSceneDefinition(name: "login", title: "Login: MVVM with an Action", isShared: false) { environment in
            LoginViewController(viewModel: LoginViewModel(scheduler: environment.scheduler))
        },
        DemoSceneDefinition(name: "repos", title: "Repos: a list with load more", isShared: false) { _ in
            ReposViewController()
        },
        DemoSceneDefinition(name: "echo", title: "Echo (benchmark)", isShared: false) { _ in
            EchoViewController()
        },
        DemoSceneDefinition(name: "board", title: "Board: one slider for everyone", isShared: true) { environment in
            BoardViewController(viewerCounts: environment.viewers)
        },
    ]

    /// The scene called `name`, if any.
    public static func named(_ name: String) -> DemoSceneDefinition? {
        all.first { $0.name == name }
    }
}

/// Registers every demo scene with `registry`: the `bindery` executable calls it at
/// start-up. (The contract with the server: this name and signature.)
public func registerDemoScenes(_ registry: SceneRegistry) {
    for scene in DemoScenes.all {
        registry.register(scene.name, title: scene.title, sharing: scene.isShared ? .shared : .perConnection) { context in
            // The context's scheduler is the main loop's in the server and a virtual one
            // under BinderyTesting; the date scene's clock follows it.
            scene.make(DemoEnvironment(scheduler: context.scheduler, viewers: context.viewerCount))
        }
    }
}
