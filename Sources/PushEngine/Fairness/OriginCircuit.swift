import Foundation

/// What a lane knows of one push service origin whose endpoints registrants chose (Web Push):
/// how many tries it may have outstanding, and whether it stopped answering. A value, part of
/// one lane's `FairShare`, so touched by one thread only.
///
/// The window works like TCP's slow start: a new origin may have `FairShare.Settings.originSlots`
/// tries outstanding, each answer widens it by one (so a push service that answers takes the
/// lane's full width within a few round trips), and each try that got no answer halves it.
/// After `openAfter` tries in a row went unanswered the circuit opens: nothing is sent there for
/// `openFor` (doubling, at most `maxOpenFor`), as after a 429. Once it closes again one probe at a
/// time goes, with the short `probeTimeout`, until an answer comes back.
struct OriginCircuit: Equatable {
    /// Tries sent and not finished.
    var inFlight = 0
    /// How many may be outstanding while the circuit is closed.
    var window: Int
    /// Tries that went unanswered since the last answer.
    var unanswered = 0
    /// While in the future, nothing is sent to the origin.
    var openUntil: Date?
    /// How long the circuit opens the next time.
    var nextOpening: TimeInterval
    /// The last admission or finished try: an idle origin is forgotten by age.
    var lastUsed: Date

    init(window: Int, opening: TimeInterval, now: Date) {
        self.window = window
        nextOpening = opening
        lastUsed = now
    }

    /// Whether it stopped answering: tries go one at a time, with the short answer timeout.
    var isProbing: Bool { unanswered > 0 }

    /// The tries it may have outstanding now.
    var limit: Int { isProbing ? 1 : window }

    /// Nothing outstanding and no opening to remember: forgetting it loses only a window.
    func isIdle(now: Date) -> Bool { inFlight == 0 && unanswered == 0 && (openUntil ?? .distantPast) <= now }

    /// An answer came: the origin answers again.
    mutating func answered(maxWindow: Int, settings: FairShare.Settings) {
        unanswered = 0
        openUntil = nil
        nextOpening = settings.openFor
        window = min(maxWindow, window + 1)
    }

    /// A try got no answer in time (or the connection stalled).
    mutating func unanswered(now: Date, settings: FairShare.Settings) {
        unanswered += 1
        window = max(1, window / 2)
        guard unanswered >= settings.openAfter, (openUntil ?? .distantPast) <= now else { return }
        openUntil = now.addingTimeInterval(nextOpening)
        nextOpening = min(settings.maxOpenFor, nextOpening * 2)
    }
}
