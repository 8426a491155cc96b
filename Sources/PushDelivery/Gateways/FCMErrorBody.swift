import Foundation
import PushProtocol
import PushSupport

/// The parts of an FCM v1 error answer that classification reads:
/// `{"error": {"code", "message", "status", "details": [{"@type": "….FcmError", "errorCode"},
/// {"@type": "….BadRequest", "fieldViolations": [{"field", "description"}]}]}}`.
struct FCMErrorBody: Equatable {
    /// `error.status`, the google.rpc code name (`INVALID_ARGUMENT`, `NOT_FOUND`, …).
    var status: String?
    /// `error.message`. Free text; may echo request values, so never logged.
    var message: String?
    /// `errorCode` of the `google.firebase.fcm.v1.FcmError` detail (`UNREGISTERED`, …).
    var errorCode: String?
    /// `fieldViolations` of `google.rpc.BadRequest` details.
    var fieldViolations: [FieldViolation]

    struct FieldViolation: Equatable {
        var field: String
        var description: String
    }

    /// Nil when the body is not a JSON object with an `error` object (e.g. a 502 HTML page).
    init?(_ body: [UInt8]) {
        guard !body.isEmpty,
              let root = JSON.object(body),
              let error = root["error"] as? [String: Any] else { return nil }
        status = error["status"] as? String
        message = error["message"] as? String
        errorCode = nil
        fieldViolations = []
        for detail in error["details"] as? [[String: Any]] ?? [] {
            let type = detail["@type"] as? String ?? ""
            if type.hasSuffix(".FcmError"), let code = detail["errorCode"] as? String {
                errorCode = code
            }
            for violation in detail["fieldViolations"] as? [[String: Any]] ?? [] {
                fieldViolations.append(FieldViolation(field: violation["field"] as? String ?? "",
                                                      description: violation["description"] as? String ?? ""))
            }
        }
    }

    /// Whether an `INVALID_ARGUMENT` is about the registration token (prune it) rather than
    /// the payload (drop the push, keep the token).
    ///
    /// FCM says so in one of two shapes: a message like "The registration token is not a valid
    /// FCM registration token", or the generic "Request contains an invalid argument." with a
    /// field violation on `message.token` ("Invalid registration token"). An oversize payload
    /// gets the same generic message without that violation, so the generic text alone never
    /// prunes.
    var saysRegistrationTokenInvalid: Bool {
        if fieldViolations.contains(where: { $0.field == "message.token" }) { return true }
        let texts = [message ?? ""] + fieldViolations.map(\.description)
        return texts.contains { text in
            let lowered = text.lowercased()
            return lowered.contains("registration token") && (lowered.contains("invalid") || lowered.contains("not a valid"))
        }
    }
}
