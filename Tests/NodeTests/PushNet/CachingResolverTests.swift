import Foundation
import PushSupport
import Testing
@testable import PushNet

/// A nameserver that never answers holds no caller past the budget, no more than `maxConcurrent`
/// threads, and is not asked again while its failure is remembered.
@Suite struct CachingResolverTests {
    /// Answers `public.example` at once; every other name blocks until `release()`.
    final class HangingResolver: HostResolving, Sendable {
        let calls = Protected<[String]>([])
        private let gate = DispatchSemaphore(value: 0)

        func resolve(_ host: String) -> HostResolution {
            calls.withLock { $0.append(host) }
            if host == "public.example" { return .addresses([.v4([93, 184, 216, 34])]) }
            gate.wait()
            return .temporaryFailure
        }

        func release(_ count: Int) { for _ in 0..<count { gate.signal() } }
    }

    static func settings(budget: Double = 0.2, maxConcurrent: Int = 2, maxWaiting: Int = 2) -> CachingResolver.Settings {
        var settings = CachingResolver.Settings()
        settings.maxWaiting = maxWaiting
        settings.budget = budget
        settings.maxConcurrent = maxConcurrent
        return settings
    }

    @Test func aHangingNameCostsTheBudgetOnceThenNothing() {
        let base = HangingResolver()
        let resolver = CachingResolver(base: base, settings: Self.settings())
        let start = Date()
        #expect(resolver.resolve("slow.example") == .temporaryFailure)
        #expect(Date().timeIntervalSince(start) < 1)
        let again = Date()
        #expect(resolver.resolve("slow.example") == .temporaryFailure)  // remembered: no second wait
        #expect(Date().timeIntervalSince(again) < 0.05)
        #expect(base.calls.withLock { $0 } == ["slow.example"])
        base.release(1)
    }

    @Test func lookupsAreBoundedAndAnswersAreCached() {
        let base = HangingResolver()
        let resolver = CachingResolver(base: base, settings: Self.settings(budget: 0.05, maxConcurrent: 2))
        for i in 0..<10 { _ = resolver.resolve("h\(i).example") }
        #expect(resolver.lookupsRunning == 2)  // the other eight failed at once, no thread started
        #expect(base.calls.withLock { $0.count } == 2)
        base.release(2)
        let deadline = Date().addingTimeInterval(5)
        while resolver.lookupsRunning > 0, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(resolver.resolve("public.example") == .addresses([.v4([93, 184, 216, 34])]))
        #expect(resolver.cached("public.example") == .addresses([.v4([93, 184, 216, 34])]))
        #expect(base.calls.withLock { $0.filter { $0 == "public.example" }.count } == 1)
    }

    @Test func atMostMaxWaitingCallersWait() {
        let base = HangingResolver()
        let resolver = CachingResolver(base: base, settings: Self.settings(budget: 0.5, maxConcurrent: 8, maxWaiting: 1))
        let waited = Protected<[Double]>([])
        let threads = (0..<4).map { i in
            Thread {
                let start = Date()
                _ = resolver.resolve("w\(i).example")
                waited.withLock { $0.append(Date().timeIntervalSince(start)) }
            }
        }
        threads.forEach { $0.start() }
        let deadline = Date().addingTimeInterval(5)
        while waited.withLock({ $0.count }) < 4, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        let times = waited.withLock { $0 }.sorted()
        #expect(times.count == 4)
        #expect(times.prefix(3).allSatisfy { $0 < 0.3 })  // did not wait
        #expect(times.last.map { $0 >= 0.45 } == true)    // the one waiter waited out its budget
        #expect(resolver.lookupsRunning == 4)             // every lookup was started all the same
        base.release(4)
    }

    @Test func cachedNeverBlocksAndLooksUpInTheBackground() throws {
        let base = HangingResolver()
        let resolver = CachingResolver(base: base, settings: Self.settings())
        #expect(resolver.cached("public.example") == nil)
        let deadline = Date().addingTimeInterval(5)
        while resolver.cached("public.example") == nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(resolver.cached("public.example") != nil)
    }
}
