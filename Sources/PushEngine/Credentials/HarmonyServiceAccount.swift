import Foundation
import PushCrypto
import PushProtocol

/// The parts of a Huawei service-account JSON file (AppGallery Connect / API Console,
/// "service account key") that the HarmonyOS Push Kit JWT needs: `key_id`, `sub_account`,
/// `private_key`; `project_id` when present.
package struct HarmonyServiceAccount: ServiceAccountFile {
    package var keyID: String
    package var subAccount: String
    package var privateKeyPEM: String
    package var projectId: String?

    package init(json: [UInt8]) throws(Invalid) {
        let object = try Self.object(json)
        guard let keyID = object["key_id"] as? String, !keyID.isEmpty,
              let subAccount = object["sub_account"] as? String, !subAccount.isEmpty,
              let key = object["private_key"] as? String else {
            throw Invalid(description: "key_id, sub_account and private_key are required")
        }
        self.keyID = keyID
        self.subAccount = subAccount
        privateKeyPEM = key
        projectId = (object["project_id"] as? String).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The PS256 JWT this account signs.
    package func token() throws -> HarmonyServiceAccountToken {
        HarmonyServiceAccountToken(keyID: keyID, subAccount: subAccount,
                                   signer: try PS256Signer(pemRepresentation: privateKeyPEM))
    }
}
