/// A value that may cross threads but is only *used* on its loop's thread.
///
/// `@unchecked Sendable` because the type system cannot see that rule: wrap a
/// loop-confined object (a responder) to carry it through a worker thread and back
/// via `EventLoop.execute`, and unwrap it only there.
struct LoopBound<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
