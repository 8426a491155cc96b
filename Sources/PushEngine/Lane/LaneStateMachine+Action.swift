import Foundation
import PushDelivery
import PushProtocol
import PushStore
import PushSupport

extension LaneStateMachine {
    /// What the driver does for the machine. The ones with a report feed it back at once
    /// (`credentialsPrepared`, `claimed`/`claimFailed`, `finished`, `credentialsRenewed`), and
    /// the actions the report returns are carried out before the rest of the list.
    enum Action: Equatable {
        /// Make the provider's credentials usable (may mint; blocks): `credentialsPrepared`.
        case prepareCredentials
        /// Claim up to `limit` due rows of the provider: `claimed`, or `claimFailed`.
        case claim(limit: Int)
        /// Build the rows' requests (off the lane's thread) with the credential of
        /// `generation` and send them, each to be answered within `answerTimeout` when given
        /// (else the lane's request timeout); each try is reported with `finished`.
        case send([OutboxEntry], generation: Int, answerTimeout: TimeInterval? = nil)
        /// Return a claimed row to the queue, due at `at`.
        case reschedule(Int64, at: Date)
        /// Return claimed rows to the queue untried (their attempt not counted), due at `until`.
        case release([Int64], until: Date)
        /// Delete finished rows, each counted by its outcome.
        case complete([FinishedDelivery])
        /// Extend the leases of the rows in flight (a lost one is logged).
        case renewClaims([Int64])
        /// The provider refused the credential `attempt` was sent with: renew it once
        /// (`ProviderCredentials.refused`), then `credentialsRenewed`.
        case refreshCredentials(Attempt, reason: DeliveryReason, retryAt: Date)
        /// The provider accepted the credential of `generation`.
        case credentialsAccepted(generation: Int)
        /// A dead registration: delete it unless renewed after `notUpdatedAfter`, count the
        /// pruning by reason and log it (`event=registration_pruned`).
        case prune(registrationID: String, notUpdatedAfter: Date, reason: DeliveryReason)
        /// `pushnode_deliveries_total{outcome}` by that many.
        case count(Outcome, Int)
        /// `pushnode_credential_refreshes_total` by that many.
        case countCredentialRefreshes(Int)
        /// The provider's health changed; `reason` says why it is not healthy (`/readyz`).
        case setHealth(ProviderHealth.State, reason: DeliveryReason? = nil)
        /// A line for the log (a `DeliveryEvent`'s record for every finished try).
        case log(LogRecord)
        /// A finished try: its `DeliveryEvent` is logged and kept for the status page (recent
        /// outcomes, the provider's last failure).
        case finishedTry(DeliveryEvent)
        /// Nothing is in flight after `stop()`: the lane's thread ends.
        case exit
    }

    /// The `outcome` label of `pushnode_deliveries_total`.
    typealias Outcome = TryOutcome
}
