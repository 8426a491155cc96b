import Foundation
import PushCrypto
import PushProtocol
import PushSupport

/// The parts of a Google service-account JSON file that FCM needs.
package struct ServiceAccount: ServiceAccountFile {
    package var clientEmail: String
    package var privateKeyPEM: String
    package var privateKeyID: String?
    package var tokenURI: String
    package var projectId: String

    package static let defaultTokenURI = "https://oauth2.googleapis.com/token"

    /// Parses the file's JSON; `client_email`, `private_key` and `project_id` are required.
    package init(json: [UInt8]) throws(Invalid) {
        let object = try Self.object(json)
        guard let email = object["client_email"] as? String, let key = object["private_key"] as? String,
              let project = object["project_id"] as? String, !project.isEmpty else {
            throw Invalid(description: "client_email, private_key and project_id are required")
        }
        clientEmail = email
        privateKeyPEM = key
        privateKeyID = object["private_key_id"] as? String
        tokenURI = (object["token_uri"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultTokenURI
        projectId = project
    }

    /// The RS256 assertion this account signs for its access tokens.
    package func assertion() throws -> GoogleServiceAccountAssertion {
        GoogleServiceAccountAssertion(clientEmail: clientEmail, tokenURI: tokenURI,
                                      signer: try RS256Signer(pemRepresentation: privateKeyPEM),
                                      privateKeyID: privateKeyID)
    }
}
