/// The worked example of `Spec/vectors/any-compat-reference.json` (computed by an independent
/// implementation of the any/Anytype push crypto), copied here so the tests stand alone.
enum AnyCompatVector {
    /// The ACL's first metadata key (Ed25519 seed) and the current read key: the ACL material.
    static let metadataKeySeed = "396d0ebf30bd03dbd4c5551b2025de8e1e96dde921cef1db2d6426a6ab2c498b"
    static let readKey = "f528f5fe41ccf5673e3d3f60f47197d9908bb29122adbc2b59fff905d21b5df2"
    static let spacePushSeed = "bb00d90cd3d97caf94a772dc654a8b7d517f4543c608bc759ef7c131e3a2a30d"
    static let spacePushPublic = "13e2db8ce6c31299fe5d4e7a6702c45685fd7387203a5469f943f8713b0a5691"
    static let spaceKey = "2LdP4HGLw6M8MFLGhiJYLrRwYrgQV7KeS9DeHraYULyn"
    static let encKey = "afa3c3a2fee270cf8188636f1a72c8718990969898149d69b2449ee18ce15213"
    static let encKeyId = "6336c88daa8dba7bb853429daba65beab16f0b3ebe4d9ab1c4d5de8eca0e48f8"
    static let accountSeed = "15cd54408e8094705de2ad2c19786121b18720bc766cbd363d06242a71e7c1e3"
    static let accountId = "AAmVumbaGtQWyLCesrsYB9NAaBfJUvRNY6ztF7J7UEU927Wy"
    /// The chat id whose SHA-256 is the topic's hash (found by hashing the payload's `chatId`).
    static let chatId = "bafyreichat"
    static let topic = "chats/dce88a540f60558e0c7342b9297d6d12c5aa06bb50e579b5427eda37adf0f4fe"
    static let topicSignature = "A9DN9lKCqODdhUC0lhF5UL+9Joo2PnoXbFOry9lVyBBID0C4v4k/WH2Hr8bog7Gwa+Zk9Psw+gpiBk2AyT1cBg=="
    static let spaceRegistrationSignature = "Tf+kyu5uX4lN9fNPuGWMfE3CTW2GM61pv+0UPiM5gSJoA2F7u1iE1JhtA5YWuIGXiIWkUw/EqgKkuJpvrmAfBA=="
    /// Written by an older sender: no `spaceId`/`spaceUxType`/`spaceType`.
    static let plaintext = #"{"senderId":"AAmVumbaGtQWyLCesrsYB9NAaBfJUvRNY6ztF7J7UEU927Wy","type":1,"newMessage":{"chatId":"bafyreichat","msgId":"msg1","spaceName":"Project","chatName":"general","senderName":"alice","text":"hi é世","hasAttachments":false,"attachments":[]}}"#
    static let nonce = "4add799c36b3a5f594bb8f88"
    static let payload = "St15nDazpfWUu4+IX6vUeYLWYWk2qzmYTtBLjIVTAu4ai+uowLSkFLg92+IO8PTdmvzdMqBrBaMN6fBnFRKoIKP1i34reVCqvjri794mHq/OSPbxZ2R9siN8m1lnTlJRoaxVgs7jBPz8aWcW43DWFs4M22/SGlZgflilyrOEZHizYGpILYSlLlp24fpwdewn2TC/EeOUrwDmvz3Fg7RnPi347eHOdxsiTe93GWqKXHaub51tJyVA5vwzc1LmhL/2bCuAPySvACvY9DYuWndxJ8srXOOQzXD0U+BTBN/I0Kh9XqtnHzOUCIqDzzyDihFvnSfk6WOFa5xahpJ+KyEkpp5XW6yQheg13QWK4DJZtWGOr2E="
    static let payloadSignature = "Ms8KoKRKmD6VIR1pRUpwA9C/yfCnK3E3iCiNzSazKCfHrK8akdO31lpXLNa66Hx02BNVefK4QZ/RVxgifM5TCw=="
}
