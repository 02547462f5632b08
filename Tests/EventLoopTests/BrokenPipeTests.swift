import LoopTestSupport
import EventLoop
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A client that resets its connection while the server writes must not kill the server
/// with SIGPIPE (found by Tests/Reliability/nothing_lost.py: bindery exited with signal 13).
final class BrokenPipeTests: XCTestCase {
    func testCreatingALoopIgnoresSIGPIPE() throws {
        _ = signal(SIGPIPE, SIG_DFL)
        _ = try EventLoop()
        let previous = signal(SIGPIPE, SIG_IGN)
        XCTAssertEqual(unsafeBitCast(previous, to: Int.self), unsafeBitCast(SIG_IGN, to: Int.self),
                       "EventLoop.init must leave SIGPIPE ignored")
    }
}
