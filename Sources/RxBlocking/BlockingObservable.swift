import Foundation
import RxCore

/// An observable with blocking operators (`first()`, `last()`, `toArray()`, `single()`,
/// `materialize()`), made by `toBlocking(timeout:)`: each operator subscribes and blocks
/// the calling thread until the sequence gives its answer.
///
/// Meant for tests and scripts, as in RxSwift; blocking a thread in an app is usually a
/// sign the design should change. On the process main thread the wait runs the main run
/// loop, so work sent to `MainScheduler` (the main dispatch queue when no Bindery loop
/// is installed) still runs, unless the call is made from a block the main queue is
/// running (a serial queue runs no other block meanwhile). A thread that *is* a running
/// Bindery loop cannot be pumped
/// from inside one of its own callbacks: work the source sends to `MainScheduler` then
/// waits until the blocking call returns, so the call ends only by its timeout
/// (`RxError.timeout`). Block from another thread, or pass a timeout.
public struct BlockingObservable<Element> {
    /// The longest the operators block before throwing `RxError.timeout`; `nil` waits forever.
    let timeout: TimeInterval?
    /// The sequence the operators subscribe to.
    let source: Observable<Element>
}
