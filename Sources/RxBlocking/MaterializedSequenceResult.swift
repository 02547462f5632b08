/// How a blocked-on sequence ended, with the elements it sent first
/// (``BlockingObservable/materialize()``).
@frozen public enum MaterializedSequenceResult<T> {
    /// The sequence completed after sending `elements`.
    case completed(elements: [T])
    /// The sequence failed (or the wait timed out, with `RxError.timeout`) after sending
    /// `elements`.
    case failed(elements: [T], error: Error)
}
