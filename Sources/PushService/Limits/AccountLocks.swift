import Foundation

/// Serializes the count-then-write of one account's bounded collections (registrations, spaces:
/// `AccountBounds`), so that concurrent requests of one account cannot pass the same count and
/// together overshoot the bound on this node. Striped: an account hashes to one of a fixed set of
/// locks, so memory stays bounded however many accounts exist; two accounts on one stripe only
/// wait for each other's write.
///
/// With several nodes on one database the bound can be overshot by the requests of one account
/// that reach different nodes at the same instant — at most one per node.
///
/// Plain `NSLock`s rather than `Protected`: the lock is held across a store write, which
/// `Protected` rules out.
final class AccountLocks: Sendable {
    private let stripes: [NSLock]

    init(stripes: Int = 64) {
        self.stripes = (0..<max(1, stripes)).map { _ in NSLock() }
    }

    func withLock<T>(_ account: String, _ body: () throws(ServiceError) -> T) throws(ServiceError) -> T {
        var hasher = Hasher()
        hasher.combine(account)
        let stripe = stripes[Int(UInt(bitPattern: hasher.finalize()) % UInt(stripes.count))]
        stripe.lock()
        defer { stripe.unlock() }
        return try body()
    }
}
