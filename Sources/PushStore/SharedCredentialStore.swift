import Foundation

/// A provider credential kept in the database so every node sharing it sends the same one
/// (PROTOCOL §10): one APNs provider token per (teamId, keyId), as Apple asks — a key's token
/// changed more often than every 20 minutes is refused `429 TooManyProviderTokenUpdates`.
package struct SharedCredential: Sendable, Equatable {
    package var value: String
    package var issuedAt: Date
    /// Minted because the one before it was refused: the one renewal allowed inside the
    /// minimum interval.
    package var afterRefusal: Bool

    package init(value: String, issuedAt: Date, afterRefusal: Bool = false) {
        self.value = value
        self.issuedAt = issuedAt
        self.afterRefusal = afterRefusal
    }
}

/// Where shared credentials live: the PostgreSQL store (`shared_credentials`). Renewal is a
/// compare-and-set, so of several nodes renewing at once exactly one wins and the others read
/// the winner's.
package protocol SharedCredentialStore: Sendable {
    /// The credential stored under `name`, or nil when none is.
    func sharedCredential(_ name: String) throws -> SharedCredential?
    /// Stores `new` under `name` if the stored credential is still `expected` (nil: none is);
    /// true when it did.
    func replaceSharedCredential(_ name: String, expected: SharedCredential?, with new: SharedCredential) throws -> Bool
}
