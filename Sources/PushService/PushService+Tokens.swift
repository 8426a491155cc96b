import Foundation
import PushCrypto
import PushProtocol
import PushStore
import PushSupport

extension PushService {
    /// `POST /v1/tokens`. The same platform, appId, environment and token always make the same
    /// registration; registering it again replaces it, moving it to the caller if another account had it
    /// (a Web Push endpoint only with the `auth` it was registered with: `AccountBounds.checkOwner`).
    /// Past `limits.maxRegistrationsPerAccount` a new one is refused `account.limit_reached`.
    /// `admittingDisabledPlatform` stores a token of a platform without credentials instead of refusing
    /// it with `platform.disabled` (the any-sync door, PROTOCOL §8: its clients resend tokens every cycle).
    package func setToken(_ request: SetTokenRequest, caller: AccountID,
                         admittingDisabledPlatform: Bool = false) throws(ServiceError) -> SetTokenResponse {
        let address = try tokenRules.normalize(request, admittingDisabledPlatform: admittingDisabledPlatform)
        let now = clock()
        let id = address.registrationId
        let registration = Registration(id: id, account: caller.string, deviceId: request.deviceId, address: address,
                                        createdAt: now, updatedAt: now)
        try accountLocks.withLock(caller.string) { () throws(ServiceError) in
            let existing = try stored(.read) { try registry.registration(id: id) }
            try AccountBounds.checkOwner(registration, existing: existing)
            if existing?.account != caller.string {
                let held = try stored(.read) { try registry.registrations(ofAccount: caller.string) }
                try AccountBounds.checkRegistration(registration, held: held, limit: limits.maxRegistrationsPerAccount)
            }
            _ = try stored(.write) { try registry.saveRegistration(registration) }
        }
        return SetTokenResponse(registrationId: id)
    }

    /// `GET /v1/tokens`: never the tokens or keys.
    package func listTokens(caller: AccountID) throws(ServiceError) -> ListTokensResponse {
        let registrations = try stored(.read) { try registry.registrations(ofAccount: caller.string) }
        return ListTokensResponse(registrations: registrations.map { registration in
            RegistrationSummary(
                registrationId: registration.id, deviceId: registration.deviceId, platform: registration.address.platform,
                appId: registration.address.appId, environment: registration.address.environment,
                createdAt: Int64(registration.createdAt.timeIntervalSince1970.rounded(.down)),
                updatedAt: Int64(registration.updatedAt.timeIntervalSince1970.rounded(.down)),
                lastDeliveryAt: registration.lastDeliveryAt.map(Timestamp.rfc3339), lastOutcome: registration.lastOutcome)
        })
    }

    /// `POST /v1/tokens/revoke`: always succeeds, whether or not anything was registered.
    package func revokeToken(_ request: RevokeTokenRequest, caller: AccountID) throws(ServiceError) -> SuccessResponse {
        switch request.target {
        case .device(let deviceId):
            try stored(.write) { try registry.deleteRegistrations(ofAccount: caller.string, deviceId: deviceId) }
        case .token(let token, let platform):
            let normalized = platform.provider == .apns ? token.lowercased() : token
            try stored(.write) { try registry.deleteRegistrations(ofAccount: caller.string, platform: platform, token: normalized) }
        }
        return SuccessResponse()
    }
}
