/// Baselines that involve no reactive library.
enum BaselineScenarios {
    /// (e)'s baseline: what a Binder does per element, as a plain closure call through
    /// a stored (so not inlined) closure.
    @Sendable static func closureCall() -> Runner {
        let label = Label()
        let holder = ClosureHolder { (label: Label, value: Int) in label.value &+= value }
        return Runner(keepAlive: [holder]) { n in
            for i in 0..<n {
                holder.call(label, i)
            }
            return label.value
        }
    }
}

private final class ClosureHolder {
    let binding: (Label, Int) -> Void
    init(_ binding: @escaping (Label, Int) -> Void) { self.binding = binding }

    @inline(never)
    func call(_ label: Label, _ value: Int) { binding(label, value) }
}
