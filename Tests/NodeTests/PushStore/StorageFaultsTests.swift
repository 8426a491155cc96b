import Testing
@testable import PushStore

/// The rule of storage faults (PROTOCOL §3.3 `/readyz`): a failed call starts a fault of its kind,
/// only a success of the same kind ends it; times come in as arguments.
@Suite struct StorageFaultsTests {
    @Test func aWriteFaultOutlastsEveryReadAndEndsWithAWrite() {
        var faults = StorageFaults()
        #expect(faults.record(.read, succeeded: true, at: 1) == nil)
        #expect(faults.record(.write, succeeded: false, at: 10) == .unavailable)
        // A full disk: reads go on working, and none of them ends the fault.
        for time in [11.0, 12, 13] { #expect(faults.record(.read, succeeded: true, at: time) == nil) }
        #expect(!faults.isAvailable && faults.failing == [.write])
        #expect(faults.record(.write, succeeded: false, at: 14) == nil)  // still the fault of time 10
        #expect(faults.record(.write, succeeded: true, at: 16.5) == .recovered(seconds: 6.5))
        #expect(faults.isAvailable && faults.failing.isEmpty)
        #expect(faults.record(.write, succeeded: true, at: 17) == nil)
    }

    @Test func aReadFaultEndsWithARead() {
        var faults = StorageFaults()
        #expect(faults.record(.read, succeeded: false, at: 5) == .unavailable)
        #expect(faults.record(.write, succeeded: true, at: 6) == nil)  // the read connections may still fail
        #expect(faults.failing == [.read])
        #expect(faults.record(.read, succeeded: true, at: 8) == .recovered(seconds: 3))
    }

    /// Storage is available again once the last fault ends, and the fault lasted from the first.
    @Test func bothKindsFailingRecoverOnlyWhenBothSucceed() {
        var faults = StorageFaults()
        #expect(faults.record(.read, succeeded: false, at: 20) == .unavailable)
        #expect(faults.record(.write, succeeded: false, at: 21) == nil)
        #expect(faults.failing == [.read, .write])
        #expect(faults.record(.read, succeeded: true, at: 22) == nil)
        #expect(faults.failing == [.write] && !faults.isAvailable)
        #expect(faults.record(.read, succeeded: false, at: 23) == nil)
        #expect(faults.record(.write, succeeded: true, at: 24) == nil)
        #expect(faults.failing == [.read])
        // 20 to 30: storage was unavailable all along, whichever kind was failing.
        #expect(faults.record(.read, succeeded: true, at: 30) == .recovered(seconds: 10))
    }
}
