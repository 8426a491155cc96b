import Foundation
import Testing
@testable import PushStore

/// The single-node replay window survives a restart (PROTOCOL §2): what one cache accepted, the next
/// one opened on the same directory refuses until it expires.
@Suite struct JournaledReplayCacheTests {
    @Test func aPairAcceptedBeforeAReopenIsReplayedAfterIt() throws {
        let directory = TemporaryDirectory()
        let first = try JournaledReplayCache(directory: directory.url.path, window: 600, now: 1000)
        #expect(first.record(keyID: "A", nonce: "n1", expiresAt: 1300, now: 1000) == .fresh)
        #expect(first.record(keyID: "A", nonce: "n2", expiresAt: 1010, now: 1000) == .fresh)
        #expect(first.record(keyID: "A", nonce: "n1", expiresAt: 1300, now: 1001) == .replayed)

        let second = try JournaledReplayCache(directory: directory.url.path, window: 600, now: 1100)
        #expect(second.record(keyID: "A", nonce: "n1", expiresAt: 1400, now: 1100) == .replayed)
        #expect(second.record(keyID: "A", nonce: "n2", expiresAt: 1400, now: 1100) == .fresh)  // n2 had expired
        #expect(second.memory.count == 2)

        // A third open still knows n1 (compaction kept it) but not past its expiry.
        #expect(try JournaledReplayCache(directory: directory.url.path, window: 600, now: 1200)
            .record(keyID: "A", nonce: "n1", expiresAt: 1500, now: 1200) == .replayed)
        #expect(try JournaledReplayCache(directory: directory.url.path, window: 600, now: 1301)
            .record(keyID: "A", nonce: "n1", expiresAt: 1600, now: 1301) == .fresh)
    }

    @Test func rotationKeepsEveryPairUntilItExpires() throws {
        let directory = TemporaryDirectory()
        // window 100: a pair lives at most 100 s past its append (created may be a skew ahead).
        let cache = try JournaledReplayCache(directory: directory.url.path, window: 100, now: 0)
        #expect(cache.record(keyID: "A", nonce: "late", expiresAt: 200, now: 100) == .fresh)
        #expect(cache.record(keyID: "A", nonce: "x", expiresAt: 202, now: 102) == .fresh)  // rotates: late is in the old segment
        let reopened = try JournaledReplayCache(directory: directory.url.path, window: 100, now: 199)
        #expect(reopened.record(keyID: "A", nonce: "late", expiresAt: 299, now: 199) == .replayed)
        #expect(reopened.record(keyID: "A", nonce: "x", expiresAt: 299, now: 199) == .replayed)
        // Two more rotations drop only what expired.
        #expect(reopened.record(keyID: "A", nonce: "y", expiresAt: 400, now: 300) == .fresh)
        #expect(reopened.record(keyID: "A", nonce: "z", expiresAt: 500, now: 402) == .fresh)
        let again = try JournaledReplayCache(directory: directory.url.path, window: 100, now: 403)
        #expect(again.memory.count == 1)  // z; y expired at 400
    }

    @Test func aTornLastRecordIsIgnored() throws {
        let directory = TemporaryDirectory()
        let cache = try JournaledReplayCache(directory: directory.url.path, window: 600, now: 0)
        #expect(cache.record(keyID: "A", nonce: "n", expiresAt: 300, now: 0) == .fresh)
        let file = URL(fileURLWithPath: directory.url.path).appendingPathComponent(ReplayJournal.currentName)
        let handle = try FileHandle(forWritingTo: file)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([1, 2, 3]))
        try handle.close()
        let reopened = try JournaledReplayCache(directory: directory.url.path, window: 600, now: 10)
        #expect(reopened.memory.count == 1)
        #expect(reopened.record(keyID: "A", nonce: "n", expiresAt: 300, now: 10) == .replayed)
    }
}
