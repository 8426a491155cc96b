/// The kind of a store call, as far as storage health goes: a read, or a write that must commit.
package enum StorageAccess: String, Sendable, CaseIterable {
    case read, write
}

/// The rule of storage faults (PROTOCOL §3.3 `/readyz`), as a value fed with each store call's
/// outcome and the time it ended: a failed call starts a fault of its kind, and only a successful
/// call *of the same kind* ends it. Storage is available while no fault lasts.
///
/// Kinds are kept apart because storage can fail one way only. On a full disk reads go on working
/// while every commit fails; if any success ended the fault, the next read (the readiness probe's
/// own, or any request's) would call storage available while every Notify is refused. The other
/// way round, a write's success says nothing about the read connections (SQLite keeps a pool of
/// its own, which can fail to open, e.g. out of file descriptors).
package struct StorageFaults: Sendable, Equatable {
    /// The kinds of call with a running fault: what a probe must try to end them.
    package private(set) var failing: Set<StorageAccess> = []
    /// When storage became unavailable (the first of the faults running since), nil while available.
    package private(set) var unavailableSince: Double?

    /// A change of availability that `record` reports.
    package enum Change: Sendable, Equatable {
        /// The first fault started: storage was available and is not.
        case unavailable
        /// The last fault ended, `seconds` after storage became unavailable.
        case recovered(seconds: Double)
    }

    package init() {}

    /// No fault is running.
    package var isAvailable: Bool { failing.isEmpty }

    /// A call of kind `access` ended at `time` (monotonic seconds), succeeding or failing; returns
    /// the change of availability, if any.
    package mutating func record(_ access: StorageAccess, succeeded: Bool, at time: Double) -> Change? {
        if succeeded {
            guard failing.remove(access) != nil, failing.isEmpty, let since = unavailableSince else { return nil }
            unavailableSince = nil
            return .recovered(seconds: max(0, time - since))
        }
        let wasAvailable = failing.isEmpty
        failing.insert(access)
        guard wasAvailable else { return nil }
        unavailableSince = time
        return .unavailable
    }
}
