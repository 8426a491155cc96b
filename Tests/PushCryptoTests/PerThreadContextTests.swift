#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import PushCrypto

/// The per-thread OpenSSL contexts: correct results from many threads at once, and
/// threads that exit release theirs (a bad release would crash the test process).
@Suite struct PerThreadContextTests {
    @Test func encryptsFromManyTasksAtOnce() async throws {
        let receiver = try P256.PrivateKey.generate()
        let auth = SecureRandom.bytes(16)
        let subscriber = try WebPushSubscriberKeys(p256dh: receiver.publicKey, auth: auth)
        let results = try await withThrowingTaskGroup(of: ([UInt8], [UInt8]).self) { group in
            for index in 0..<64 {
                group.addTask {
                    let message = Array("message \(index)".utf8)
                    return (message, try WebPush.encrypt(message, to: subscriber))
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 64)
        for (message, body) in results {
            #expect(try WebPush.decrypt(body, privateKey: receiver, auth: auth) == message)
        }
    }

    @Test func threadsThatExitReleaseTheirContexts() throws {
        for _ in 0..<4 {
            let job = ThreadJob {
                let key = try P256.PrivateKey.generate()
                let subscriber = try WebPushSubscriberKeys(p256dh: key.publicKey, auth: SecureRandom.bytes(16))
                let body = try WebPush.encrypt([1, 2, 3], to: subscriber)
                return try WebPush.decrypt(body, privateKey: key, auth: subscriber.auth) == [1, 2, 3]
            }
            #expect(job.runOnNewThreadAndJoin())
        }
    }
}

/// Runs a closure on a fresh pthread and joins it, so the thread's destructors have run.
final class ThreadJob: @unchecked Sendable {
    private let work: () throws -> Bool
    private var outcome = false

    init(_ work: @escaping () throws -> Bool) { self.work = work }

    func runOnNewThreadAndJoin() -> Bool {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        guard pthread_create(&thread, nil, runThreadJob, context) == 0 else { return false }
        pthread_join(thread, nil)
        return outcome
    }

    fileprivate func run() { outcome = (try? work()) ?? false }
}

private func runThreadJob(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    Unmanaged<ThreadJob>.fromOpaque(context!).takeRetainedValue().run()
    return nil
}
