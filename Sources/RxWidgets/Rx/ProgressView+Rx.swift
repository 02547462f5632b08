import RxCore

extension Reactive where Base: ProgressView {
    /// The progress, `0...1`.
    public var progress: Binder<Float> {
        Binder(base) { progressView, progress in
            progressView.progress = progress
        }
    }
}
