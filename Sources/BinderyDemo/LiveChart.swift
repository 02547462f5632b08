import Bindery
import Foundation
import RxCore
import RxWidgets

/// The `chart` scene (issue 12's live chart): a server's load streamed every half second
/// into a sliding-window line chart (each sample one small keyed patch), a bar chart of
/// votes the visitor casts with buttons, and a scatter of request latency against load
/// that fills as samples arrive. Pause stops the stream; Resume starts it again.
///
/// The samples are a seeded random walk on the scene's scheduler, so tests replay them
/// in virtual time.
public final class LiveChartViewController: ViewController, Scene {
    /// CPU and memory load over the last ``window`` samples.
    public let loadChart = ChartView()
    /// Pause / Resume.
    public let pauseButton = Button()
    /// "Live · CPU 42%" or "Paused".
    public let statusLabel = Label()
    /// Votes per fruit.
    public let votesChart = ChartView()
    /// A vote for apples.
    public let applesButton = Button()
    /// A vote for pears.
    public let pearsButton = Button()
    /// A vote for plums.
    public let plumsButton = Button()
    /// Clears the votes.
    public let resetButton = Button()
    /// Latency against CPU load, one dot per sample.
    public let latencyChart = ChartView()

    /// Samples kept by the line chart (20 seconds).
    public static let window = 40
    /// Dots kept by the scatter.
    public static let scatterWindow = 60
    /// Samples shown when the scene opens (the last 5 seconds).
    public static let history = 10
    /// Time between samples.
    public static let period: RxTimeInterval = .milliseconds(500)
    /// The fruits voted on, in the bar chart's order.
    public static let fruits = ["Apples", "Pears", "Plums"]

    /// The votes cast so far, by fruit.
    public let votes = BehaviorRelay(value: [0, 0, 0])
    /// Whether the stream is paused.
    public let isPaused = BehaviorRelay(value: false)
    /// Samples taken so far (history included).
    public private(set) var samplesTaken = 0

    private let scheduler: SchedulerType
    private var load: LoadSimulator
    private let bag = DisposeBag()

    /// The scene, sampling on `scheduler` (the main loop's in the app, virtual time in
    /// tests) from a random walk seeded with `seed`.
    public init(scheduler: SchedulerType, seed: UInt64 = 2024) {
        self.scheduler = scheduler
        load = LoadSimulator(seed: seed)
        super.init()
    }

    /// The widgets under their ids.
    public var sceneWidgets: [(id: String, widget: View)] {
        [("loadChart", loadChart), ("pauseButton", pauseButton), ("statusLabel", statusLabel),
         ("votesChart", votesChart), ("applesButton", applesButton), ("pearsButton", pearsButton),
         ("plumsButton", plumsButton), ("resetButton", resetButton), ("latencyChart", latencyChart)]
    }

    /// The live chart on top, then votes and the scatter side by side (stacked on phones).
    public var sceneLayout: SceneLayout? {
        .column([
            .widget("loadChart"),
            .row([.widget("pauseButton"), .widget("statusLabel")], alignment: .center),
            .row([
                .column([.widget("votesChart"),
                         .row([.widget("applesButton"), .widget("pearsButton"), .widget("plumsButton"), .widget("resetButton")])]),
                .column([.widget("latencyChart")]),
            ], spacing: 24),
        ], spacing: 20)
    }

    /// Sets the charts up and binds the stream, the votes and Pause.
    override public func viewDidLoad() {
        super.viewDidLoad()
        setUpCharts()

        // The stream: a sample each period while not paused (flatMapLatest restarts the
        // timer on Resume, as a fresh subscription).
        isPaused
            .flatMapLatest { [scheduler] paused -> Observable<Int> in
                paused ? .empty() : Observable<Int>.interval(Self.period, scheduler: scheduler)
            }
            .subscribe(onNext: { [unowned self] _ in self.takeSample(at: self.scheduler.now) })
            .disposed(by: bag)

        isPaused
            .map { $0 ? "Resume" : "Pause" }
            .subscribe(onNext: { [pauseButton] title in pauseButton.setTitle(title, for: .normal) })
            .disposed(by: bag)
        // The status line says "Paused" at once, and goes live again with the next sample.
        isPaused.skip(1)
            .subscribe(onNext: { [unowned self] paused in
                let cpu = self.loadChart.series.first?.points.last?.y ?? 0
                self.statusLabel.text = Self.status(cpu: cpu, paused: paused)
            })
            .disposed(by: bag)
        pauseButton.rx.tap
            .withLatestFrom(isPaused)
            .map { !$0 }
            .bind(to: isPaused)
            .disposed(by: bag)

        // Votes: each button adds one to its fruit; the bars follow the relay.
        let taps = [applesButton, pearsButton, plumsButton].enumerated().map { index, button in
            button.rx.tap.map { index }
        }
        Observable.merge(taps)
            .withLatestFrom(votes) { index, votes -> [Int] in
                var votes = votes
                votes[index] += 1
                return votes
            }
            .bind(to: votes)
            .disposed(by: bag)
        resetButton.rx.tap.map { [0, 0, 0] }.bind(to: votes).disposed(by: bag)
        votes
            .map { counts in
                [ChartSeries(id: "votes", title: "Votes", kind: .bar,
                             points: zip(Self.fruits, counts).map { ChartPoint(x: $0, y: Double($1)) })]
            }
            .bind(to: votesChart.rx.series)
            .disposed(by: bag)
        votes
            .map { $0.reduce(0, +) > 0 }
            .bind(to: resetButton.rx.isEnabled)
            .disposed(by: bag)
    }

    private func setUpCharts() {
        loadChart.title = "Server load"
        loadChart.accessibilityLabel = "Server load, live"
        loadChart.yAxisTitle = "Load"
        loadChart.yRange = 0...1
        loadChart.yTickFormat = .percent
        loadChart.xTickFormat = .time
        // History, so the chart opens with a trace; then it grows to the window.
        let now = scheduler.now.timeIntervalSince1970
        let step = 0.5
        var cpu: [ChartPoint] = []
        var memory: [ChartPoint] = []
        var latency: [ChartPoint] = []
        for index in 0..<Self.history {
            let x = now - Double(Self.history - index) * step
            let sample = load.next()
            samplesTaken += 1
            cpu.append(ChartPoint(x: x, y: sample.cpu))
            memory.append(ChartPoint(x: x, y: sample.memory))
            latency.append(ChartPoint(x: sample.cpu, y: sample.latency))
        }
        loadChart.setSeries([
            ChartSeries(id: "cpu", title: "CPU", kind: .line, points: cpu, maxPoints: Self.window),
            ChartSeries(id: "memory", title: "Memory", kind: .line, points: memory, maxPoints: Self.window),
        ])
        statusLabel.text = Self.status(cpu: cpu.last?.y ?? 0, paused: false)

        votesChart.title = "Favourite fruit"
        votesChart.accessibilityLabel = "Votes per fruit"
        votesChart.yAxisTitle = "Votes"
        votesChart.yTickFormat = .integer
        votesChart.showsLegend = false
        for (button, fruit) in zip([applesButton, pearsButton, plumsButton], Self.fruits) {
            button.setTitle("+1 \(fruit)", for: .normal)
        }
        resetButton.setTitle("Reset", for: .normal)

        latencyChart.title = "Latency vs CPU"
        latencyChart.accessibilityLabel = "Request latency against CPU load"
        latencyChart.xAxisTitle = "CPU"
        latencyChart.yAxisTitle = "Latency (ms)"
        latencyChart.xTickFormat = .percent
        latencyChart.yTickFormat = .integer
        latencyChart.showsLegend = false
        latencyChart.setSeries([ChartSeries(id: "requests", title: "Requests", kind: .scatter,
                                            points: latency, maxPoints: Self.scatterWindow)])
    }

    private func takeSample(at date: Date) {
        let sample = load.next()
        samplesTaken += 1
        let x = date.timeIntervalSince1970
        loadChart.append(ChartPoint(x: x, y: sample.cpu), to: "cpu")
        loadChart.append(ChartPoint(x: x, y: sample.memory), to: "memory")
        // A dot per sample, at its CPU load (the key is the x; a repeated x gets its own).
        latencyChart.append(ChartPoint(x: sample.cpu, y: sample.latency), to: "requests")
        statusLabel.text = Self.status(cpu: sample.cpu, paused: isPaused.value)
    }

    /// "Live · CPU 42%".
    static func status(cpu: Double, paused: Bool) -> String {
        paused ? "Paused" : "Live · CPU \(Int((cpu * 100).rounded()))%"
    }

}

/// A seeded random walk of a server's load: CPU and memory in `0...1`, and a request
/// latency (ms) that climbs with CPU. Deterministic for a seed (SplitMix64), so tests
/// know the samples.
struct LoadSimulator {
    private var state: UInt64
    private var cpu = 0.35
    private var memory = 0.55

    init(seed: UInt64) {
        state = seed
    }

    /// A uniform number in `0..<1`.
    private mutating func uniform() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53)
    }

    /// The next sample.
    mutating func next() -> (cpu: Double, memory: Double, latency: Double) {
        // CPU wanders and is pulled back towards 40%; memory drifts slowly.
        cpu += (uniform() - 0.5) * 0.16 + (0.4 - cpu) * 0.08
        cpu = min(0.98, max(0.03, cpu))
        memory += (uniform() - 0.5) * 0.03 + (0.55 - memory) * 0.02
        memory = min(0.95, max(0.2, memory))
        let latency = 40 + 260 * cpu * cpu + uniform() * 40
        let round = { (value: Double, places: Double) in (value * places).rounded() / places }
        return (round(cpu, 1000), round(memory, 1000), round(latency, 1))
    }
}
