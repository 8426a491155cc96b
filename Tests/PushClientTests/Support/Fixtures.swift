import PushCrypto
@testable import PushClient

/// Keys and spaces built from the any-compat vector.
enum Fixtures {
    static let account = try! AccountKey(seed: try! Hex.decode(AnyCompatVector.accountSeed))
    static let signer = try! SpacePushKey(seed: try! Hex.decode(AnyCompatVector.spacePushSeed))
    static let payloadKey = try! Hex.decode(AnyCompatVector.encKey)
    static let sealer = try! PayloadKey(rawKey: payloadKey)

    static let space = PushSpace(spaceId: "spc1", name: "Project", uxType: 0, type: 0, signer: signer, sealer: sealer)
    static let chat = PushChat(id: AnyCompatVector.chatId, name: "general")

    static func receiver() -> PushReceiver {
        let receiver = PushReceiver()
        _ = try! receiver.keys.add(key: payloadKey)
        return receiver
    }

    /// Another account, e.g. a mentioned member.
    static let bob = AccountKey.generate().accountID.string
    static let carol = AccountKey.generate().accountID.string
}
