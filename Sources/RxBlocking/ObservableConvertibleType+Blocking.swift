import Foundation
import RxCore

extension ObservableConvertibleType {
    /// This sequence with blocking operators.
    ///
    /// - Parameter timeout: the longest an operator may block before it throws
    ///   `RxError.timeout` (`materialize()` returns `.failed` with it); `nil` waits forever.
    public func toBlocking(timeout: TimeInterval? = nil) -> BlockingObservable<Element> {
        BlockingObservable(timeout: timeout, source: asObservable())
    }
}
