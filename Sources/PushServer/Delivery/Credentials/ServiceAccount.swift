import Foundation
import PushCrypto

/// The parts of a Google service-account JSON file that FCM needs.
public struct ServiceAccount: Sendable {
    public var clientEmail: String
    public var privateKeyPEM: String
    public var privateKeyID: String?
    public var tokenURI: String
    public var projectId: String

    public static let defaultTokenURI = "https://oauth2.googleapis.com/token"

    public struct Invalid: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// Parses the file's JSON; `client_email`, `private_key` and `project_id` are required.
    public init(json: [UInt8]) throws(Invalid) {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(json))) as? [String: Any] else {
            throw Invalid(description: "not a JSON object")
        }
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

    public init(contentsOfFile path: String) throws(Invalid) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Invalid(description: "cannot read \(path)")
        }
        try self.init(json: Array(data))
    }

    /// The RS256 assertion this account signs for its access tokens.
    public func assertion() throws -> GoogleServiceAccountAssertion {
        GoogleServiceAccountAssertion(clientEmail: clientEmail, tokenURI: tokenURI,
                                      signer: try RS256Signer(pemRepresentation: privateKeyPEM),
                                      privateKeyID: privateKeyID)
    }
}
