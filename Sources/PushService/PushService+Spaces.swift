import Foundation
import PushCrypto
import PushProtocol

extension PushService {
    /// `POST /v1/spaces`: the space key must sign the caller's account id; past
    /// `limits.maxSpacesPerAccount` a new space is refused `account.limit_reached`.
    package func createSpace(_ request: SpaceRequest, caller: AccountID) throws(ServiceError) -> EmptyResponse {
        try verify(request, caller: caller)
        let spaceKey = request.spaceKey.string
        try accountLocks.withLock(caller.string) { () throws(ServiceError) in
            let held = try stored(.read) { try registry.spaces(ofAccount: caller.string) }
            try AccountBounds.checkSpace(spaceKey, held: held, limit: limits.maxSpacesPerAccount)
            try stored(.write) { try registry.addSpace(spaceKey, account: caller.string, at: clock()) }
        }
        return EmptyResponse()
    }

    /// `POST /v1/spaces/remove`: same proof; also drops the caller's subscriptions in that space.
    package func removeSpace(_ request: SpaceRequest, caller: AccountID) throws(ServiceError) -> EmptyResponse {
        try verify(request, caller: caller)
        try stored(.write) { try registry.removeSpace(request.spaceKey.string, account: caller.string) }
        return EmptyResponse()
    }

    private func verify(_ request: SpaceRequest, caller: AccountID) throws(ServiceError) {
        guard request.signature.count == 64 else {
            throw .invalid("signature", "signature must be a 64-byte Ed25519 signature")
        }
        guard request.isSigned(for: caller) else {
            throw .refused(.spaceSignatureInvalid, "the space key did not sign the caller's account id", field: "signature")
        }
    }
}
