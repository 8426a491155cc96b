import Foundation
import PushProtocol

/// Firebase Cloud Messaging HTTP v1 for the `android` and `ios` platforms: request building
/// (`FCMGateway+Message`) and answer classification (`FCMGateway+Classify`), no I/O. The gateway
/// is `CredentialedGateway<FCMGateway>`, its credential the cached OAuth access token.
///
/// - SeeAlso: Spec/providers.md "FCM HTTP v1", PROTOCOL §5.
package enum FCMGateway: CredentialedProvider {
    package struct Configuration: Sendable, Equatable {
        /// The Firebase project id (from the service-account file).
        package var projectId: String
        /// `fcm.baseURL`, e.g. `https://fcm.googleapis.com` or a mock's URL.
        package var baseURL: String
        /// `notifications.defaultAlert`, shown on `ios` until the app's extension replaces it.
        package var defaultAlert: DefaultAlert

        package init(projectId: String, baseURL: String = "https://fcm.googleapis.com", defaultAlert: DefaultAlert = .standard) {
            self.projectId = projectId
            self.baseURL = baseURL
            self.defaultAlert = defaultAlert
        }
    }

    /// FCM's limit on `message.data`, keys plus values.
    package static let dataLimit = 4096

    package static let provider = Provider.fcm

    /// `POST {baseURL}/v1/projects/{projectId}/messages:send` with the message of PROTOCOL §5.
    package static func buildRequest(job: DeliveryJob, credential: String, configuration: Configuration,
                                    now: Date) throws(GatewayError) -> OutboundRequest {
        let platform = job.registration.platform
        guard platform == .android || platform == .ios else { throw .unsupportedKind }
        guard !job.registration.token.isEmpty else { throw .invalidToken }
        let ttl = job.remainingTTL(at: now)
        guard ttl >= 1 else { throw .expired }
        let body: [UInt8]
        if let matrix = job.matrix {
            let data = MatrixFCMData.pairs(for: matrix)
            let size = DataKeys.size(of: data)
            guard size <= dataLimit else { throw .payloadTooLarge(size: size, limit: dataLimit) }
            guard platform == .android else { throw .unsupportedKind }
            body = matrixMessage(token: job.registration.token, data: data, priority: matrix.prio, ttl: ttl).bytes
        } else {
            let data = DataKeys.rendered(for: job)
            guard data.size <= dataLimit else { throw .payloadTooLarge(size: data.size, limit: dataLimit) }
            body = message(for: job, data: .renderedObject(data.members), ttl: ttl, defaultAlert: configuration.defaultAlert).bytes
        }
        var base = configuration.baseURL
        while base.hasSuffix("/") { base.removeLast() }
        return OutboundRequest(
            url: "\(base)/v1/projects/\(configuration.projectId)/messages:send",
            headers: [
                ("authorization", "Bearer \(credential)"),
                ("content-type", "application/json; charset=utf-8"),
            ],
            body: body
        )
    }
}
