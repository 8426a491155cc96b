import Foundation
import PushCrypto
import Testing
@testable import PushClient

/// Reads a recorded Notify the way the node and a receiving device would.
enum NotifyInspection {
    static func body(_ call: FakeTransport.Call) throws -> WireNotify {
        try JSONDecoder().decode(WireNotify.self, from: Data(call.body ?? []))
    }

    /// True when every topic carries the space key's valid signature over its UTF-8 text.
    static func topicsAreSigned(_ notify: WireNotify) -> Bool {
        notify.topics.allSatisfy { topic in
            guard let publicKey = try? Base58.decode(topic.spaceKey),
                  let signature = try? Base64.decode(topic.signature) else { return false }
            return Ed25519.verify(signature: signature, message: Array(topic.topic.utf8), publicKey: publicKey)
        }
    }

    /// The data keys a device would get for this Notify (PROTOCOL §5).
    static func dataKeys(_ notify: WireNotify) -> [String: String] {
        var data = ["x-any-type": notify.kind == "call" ? "call" : "normal", "x-any-group-id": notify.groupId ?? ""]
        if let message = notify.message {
            data["x-any-payload"] = message.payload
            data["x-any-signature"] = message.signature
            data["x-any-key-id"] = message.keyId
        }
        return data
    }

    /// Opens the Notify's payload with the vector key, verifying the sender's signature.
    static func open(_ notify: WireNotify) throws -> PushPayload {
        guard case .opened(let payload) = try Fixtures.receiver().open(data: dataKeys(notify)) else {
            throw PushClientError(code: .doesNotOpen, message: "not opened")
        }
        return payload
    }

    static func sealedSize(_ notify: WireNotify) -> Int {
        (try? Base64.decode(notify.message?.payload ?? ""))?.count ?? 0
    }
}
