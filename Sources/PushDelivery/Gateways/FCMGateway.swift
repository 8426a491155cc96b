import Foundation
import PushProtocol

/// Firebase Cloud Messaging HTTP v1 for the `android` and `ios` platforms: request building
/// (`FCMGateway+Message`) and answer classification (`FCMGateway+Classify`), no I/O.
///
/// - SeeAlso: Spec/providers.md "FCM HTTP v1", PROTOCOL §5.
package struct FCMGateway: CredentialedGateway {
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

    package var configuration: Configuration
    /// The current cached OAuth access token; nil while none is available.
    package var credential: @Sendable () -> String?

    package init(configuration: Configuration, accessToken: @escaping @Sendable () -> String?) {
        self.configuration = configuration
        self.credential = accessToken
    }

    package var provider: Provider { .fcm }

    package func request(for job: DeliveryJob, credential: String, now: Date) throws(GatewayError) -> OutboundRequest {
        try Self.buildRequest(job: job, accessToken: credential, projectId: configuration.projectId,
                                     baseURL: configuration.baseURL, defaultAlert: configuration.defaultAlert, now: now)
    }

    package func classify(_ answer: ProviderAnswer, now: Date) -> DeliveryOutcome {
        Self.classify(answer, now: now)
    }

    /// `POST {baseURL}/v1/projects/{projectId}/messages:send` with the message of PROTOCOL §5.
    package static func buildRequest(job: DeliveryJob, accessToken: String, projectId: String, baseURL: String,
                                    defaultAlert: DefaultAlert, now: Date) throws(GatewayError) -> OutboundRequest {
        let platform = job.registration.platform
        guard platform == .android || platform == .ios else { throw .unsupportedKind }
        guard !job.registration.token.isEmpty else { throw .invalidToken }
        let ttl = job.remainingTTL(at: now)
        guard ttl >= 1 else { throw .expired }
        let data = job.matrix.map(MatrixFCMData.pairs(for:)) ?? DataKeys.pairs(for: job)
        let size = DataKeys.size(of: data)
        guard size <= dataLimit else { throw .payloadTooLarge(size: size, limit: dataLimit) }

        let body: [UInt8]
        if let matrix = job.matrix {
            guard platform == .android else { throw .unsupportedKind }
            body = matrixMessage(token: job.registration.token, data: data, priority: matrix.prio, ttl: ttl).bytes
        } else {
            body = message(for: job, data: data, ttl: ttl, defaultAlert: defaultAlert).bytes
        }
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        return OutboundRequest(
            url: "\(base)/v1/projects/\(projectId)/messages:send",
            headers: [
                ("authorization", "Bearer \(accessToken)"),
                ("content-type", "application/json; charset=utf-8"),
            ],
            body: body
        )
    }
}
