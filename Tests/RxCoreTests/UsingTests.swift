import RxCore
import RxTesting
import XCTest

final class UsingTests: XCTestCase {
    private final class Resource: Disposable {
        let scheduler: TestScheduler
        private(set) var createdAt: Int?
        private(set) var disposedAt: Int?

        init(scheduler: TestScheduler) {
            self.scheduler = scheduler
            createdAt = scheduler.clock
        }

        func dispose() { disposedAt = scheduler.clock }
    }

    func testResourceLivesAsLongAsTheSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        var resources: [Resource] = []
        var xs: TestableObservable<Int>!
        let res = scheduler.start {
            Observable.using({ () -> Resource in
                let resource = Resource(scheduler: scheduler)
                resources.append(resource)
                return resource
            }, observableFactory: { _ in
                xs = scheduler.createColdObservable([.next(100, 1), .completed(200)])
                return xs.asObservable()
            })
        }
        XCTAssertEqual(res.events, [.next(300, 1), .completed(400)])
        XCTAssertEqual(resources.count, 1)
        XCTAssertEqual(resources.first?.createdAt, 200)
        XCTAssertEqual(resources.first?.disposedAt, 400)
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 400)])
    }

    func testDisposalDisposesTheResource() {
        let scheduler = TestScheduler(initialClock: 0)
        var resource: Resource?
        let res = scheduler.start(disposed: 250) {
            Observable.using({ () -> Resource in
                let created = Resource(scheduler: scheduler)
                resource = created
                return created
            }, observableFactory: { _ in Observable<Int>.never() })
        }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(resource?.disposedAt, 250)
    }

    func testErrorOfTheSequenceDisposesTheResource() {
        let scheduler = TestScheduler(initialClock: 0)
        var resource: Resource?
        let res = scheduler.start {
            Observable.using({ () -> Resource in
                let created = Resource(scheduler: scheduler)
                resource = created
                return created
            }, observableFactory: { _ in scheduler.createColdObservable([.error(10, testError)] as [Recorded<Event<Int>>]).asObservable() })
        }
        XCTAssertEqual(res.events, [.error(210, testError)])
        XCTAssertEqual(resource?.disposedAt, 210)
    }

    func testThrowingFactories() {
        let scheduler = TestScheduler(initialClock: 0)
        let res = scheduler.start {
            Observable<Int>.using({ () -> Resource in throw testError }, observableFactory: { _ in .just(1) })
        }
        XCTAssertEqual(res.events, [.error(200, testError)])

        let scheduler2 = TestScheduler(initialClock: 0)
        var resource: Resource?
        let res2 = scheduler2.start {
            Observable<Int>.using({ () -> Resource in
                let created = Resource(scheduler: scheduler2)
                resource = created
                return created
            }, observableFactory: { _ in throw testError })
        }
        XCTAssertEqual(res2.events, [.error(200, testError)])
        XCTAssertEqual(resource?.disposedAt, 200, "a created resource is still disposed")
    }
}
