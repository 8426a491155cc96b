import PushProtocol

/// The HTTP status of every error code (PROTOCOL §3.2): the one place a code gets its status.
/// Neither the service's errors nor PushProtocol's `APIError`s carry one.
package enum ErrorStatus {
    package static let byCode: [APIError.Code: Int] = [
        .requestMalformed: 400, .missingField: 400, .invalidField: 400,
        .spaceSignatureInvalid: 400, .topicSignatureInvalid: 400, .messageSignatureInvalid: 400,
        .tokenEndpointNotRoutable: 400, .appUnknown: 400,
        .authMissing: 401, .authMalformed: 401, .authInvalidSignature: 401, .authExpired: 401, .authReplayed: 401,
        .notFound: 404, .notificationNotFound: 404, .registrationNotFound: 404,
        .methodNotAllowed: 405,
        .platformDisabled: 409, .tokenInUse: 409, .accountLimitReached: 409,
        .tooLarge: 413, .payloadTooLarge: 413,
        .rateLimited: 429,
        .internal: 500,
        .unavailable: 503, .storageUnavailable: 503,
    ]
}
