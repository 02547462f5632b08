import Bindery
import RxCore
import RxWidgets

/// One demo scene: its contract name, how it is shared, and how to build an instance.
public struct DemoSceneDefinition: Sendable {
    /// The scene's name in URLs and the API (`/ws/colors`, `{"scene": "colors"}`).
    public let name: String
    /// The scene's title: the scene list's and the page's heading.
    public let title: String
    /// A sentence saying what the scene does, for a visitor.
    public let summary: String
    /// `true` for a shared scene (one instance for all clients), `false` for one
    /// instance per session.
    public let isShared: Bool
    /// How a session moves to another server with a store (replay by default; the date
    /// scene reads the clock, so it keeps its encoded state).
    public var restoration: SceneRestoration = .replay
    /// Builds an instance (view not loaded yet: the server or test client loads it); may
    /// throw a ``SceneParameterError`` for parameters it cannot open with.
    public let make: @Sendable (DemoEnvironment) throws -> ViewController
}

/// The demo app's scenes, independent of the server, so the server registers them and
/// tests build them the same way.
public enum DemoScenes {
    /// Every demo scene, in the index page's order.
    public static let all: [DemoSceneDefinition] = [
        DemoSceneDefinition(name: "colors", title: "Pick a colour",
                            summary: "Choose red, green or blue, and slide the preview from black to white.",
                            isShared: false) { _ in
            ColorsViewController()
        },
        DemoSceneDefinition(name: "counter", title: "Character counter",
                            summary: "Type anything: the count follows as you type, in characters, not bytes.",
                            isShared: false) { _ in
            CounterViewController()
        },
        DemoSceneDefinition(name: "date", title: "Date and time",
                            summary: "Tap Now to fill in today's date and the time on the server.",
                            isShared: false, restoration: .encoded) { environment in
            DateViewController(now: environment.now)
        },
        DemoSceneDefinition(name: "login", title: "Sign in",
                            summary: "A sign-in form: the button wakes up once the email and password are long enough.",
                            isShared: false) { environment in
            LoginViewController(viewModel: LoginViewModel(scheduler: environment.scheduler))
        },
        DemoSceneDefinition(name: "repos", title: "Repositories",
                            summary: "A list that grows by twenty rows each time you ask for more.",
                            isShared: false) { _ in
            ReposViewController()
        },
        DemoSceneDefinition(name: "echo", title: "Echo",
                            summary: "Whatever you type comes back in capital letters.",
                            isShared: false) { _ in
            EchoViewController()
        },
        DemoSceneDefinition(name: "board", title: "Shared slider",
                            summary: "One slider for everyone: open this page in two windows and move it.",
                            isShared: true) { environment in
            BoardViewController(viewerCounts: environment.viewers)
        },
        // Issue 12: tables, navigation, alerts, search.
        DemoSceneDefinition(name: "team", title: "Team directory",
                            summary: "People by team: tap a name to open their page, Edit to delete or reorder, Back to return.",
                            isShared: false) { environment in
            // `/scene/team?member=chen-wei` opens on Chen Wei's page (a link to a detail screen).
            try TeamListViewController.navigationController(openingOn: environment.parameters["member"])
        },
        DemoSceneDefinition(name: "feedback", title: "Feedback",
                            summary: "A form run by dialogs: rate with a sheet, type a comment in an alert, confirm before sending.",
                            isShared: false) { _ in
            FeedbackViewController()
        },
        DemoSceneDefinition(name: "search", title: "Find a country",
                            summary: "Type in the search bar: the list filters itself once you pause.",
                            isShared: false) { environment in
            CountrySearchViewController(scheduler: environment.scheduler)
        },
        DemoSceneDefinition(name: "upload", title: "Upload files",
                            summary: "Choose or drop files: watch them go up, then see each in a table. Files over 1 MiB are refused.",
                            isShared: false) { _ in
            UploadViewController()
        },
        DemoSceneDefinition(name: "bigtable", title: "Ten thousand rows",
                            summary: "A table of 10,000 rows that scrolls smoothly; tap one, or add, remove, move or star one: each is one small patch.",
                            isShared: false) { _ in
            BigTableViewController()
        },
        DemoSceneDefinition(name: "chart", title: "Live chart",
                            summary: "A server's load streaming in every half second, votes you cast as bars, and a scatter that fills as it goes.",
                            isShared: false) { environment in
            LiveChartViewController(scheduler: environment.scheduler)
        },
        DemoSceneDefinition(name: "gallery", title: "Photo gallery",
                            summary: "A grid of photos: tap one, swipe or use the dots for another album, Refresh for a new photo, Rename to retitle it.",
                            isShared: false) { environment in
            GalleryViewController(scheduler: environment.scheduler)
        },
        // Issue 22: a screen built in code, as a view tree.
        DemoSceneDefinition(name: "review", title: "Rate your dinner",
                            summary: "Two ratings made from one reusable view, and guests you add or remove as you go.",
                            isShared: false) { _ in
            ReviewViewController()
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
        registry.register(scene.name, title: scene.title, description: scene.summary, sharing: scene.isShared ? .shared : .perConnection,
                          restoration: scene.restoration) { context in
            // The context's scheduler is the main loop's in the server and a virtual one
            // under BinderyTesting; the date scene's clock follows it. The viewer count is
            // read on subscription: only the board asks, and its relay costs every session.
            try scene.make(DemoEnvironment(scheduler: context.scheduler, viewers: .deferred { context.viewerCount },
                                           parameters: context.parameters))
        }
    }
}
