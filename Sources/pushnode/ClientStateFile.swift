import Foundation
import PushClient
import PushCrypto
import PushProtocol
import PushSupport

/// The JSON state file `pushnode client reconcile` follows, for one account and device:
///
/// ```json
/// {"token": {"deviceId": "d1", "platform": "webpush", "token": "https://…", "p256dh": "…", "auth": "…"},
///  "spaces": [{"metadataKey": "<hex>", "readKey": "<hex>", "mode": "mentions",
///              "chats": [{"id": "chat1"}, {"id": "chat2", "mode": "none"}]},
///             {"metadataKey": "<hex>", "chatsUnavailable": true},
///             {"space": "space.json", "mode": "all"}]}
/// ```
///
/// `token` is optional (registered on start and whenever it changes); `mode` is the space default
/// (absent: `all`); a chat's `mode` is its override; `chatsUnavailable: true` stands for a space
/// whose chats cannot be enumerated right now (the reconciler then reuses the last good listing).
/// A space is named by any's `metadataKey` or by `space`, the path of a space file (`client space
/// new`), exactly one of them. `readKey` is accepted for completeness (the reconciler does not seal
/// anything).
struct ClientState: Decodable, Equatable {
    struct Token: Decodable, Equatable {
        var deviceId: String
        var platform: String
        var token: String
        var p256dh: String?
        var auth: String?
        var appId: String?
        var environment: String?
    }

    struct Space: Decodable, Equatable {
        struct Chat: Decodable, Equatable {
            var id: String
            var mode: NotifyMode?
        }
        var metadataKey: String?
        /// A space file's path, instead of `metadataKey`.
        var space: String?
        var readKey: String?
        var mode: NotifyMode?
        var chats: [Chat]?
        var chatsUnavailable: Bool?
    }

    var token: Token?
    var spaces: [Space]

    static func read(_ path: String) throws -> ClientState {
        guard let data = FileManager.default.contents(atPath: path) else { throw CLIError("cannot read \(path)") }
        do {
            return try JSON.decode(ClientState.self, from: Array(data))
        } catch {
            throw CLIError("\(path) is not a valid state file: \(error)")
        }
    }
}

/// `NotifySettingsSource` over the latest valid `ClientState`; `update` swaps it in.
final class StateFileSource: NotifySettingsSource {
    private struct Resolved {
        var spaces: [SpaceNotifySettings] = []
        var chats: [String: [ChatNotifySetting]?] = [:]
    }

    private let current = Protected(Resolved())

    /// Derives or loads each space's push key; throws for a bad metadata key or space file (the
    /// state is then not used).
    func update(_ state: ClientState) throws {
        var resolved = Resolved()
        for (index, space) in state.spaces.enumerated() {
            let key = try Self.pushKey(space, at: index)
            resolved.spaces.append(SpaceNotifySettings(signer: key, mode: space.mode))
            resolved.chats[key.spaceKey] = space.chatsUnavailable == true
                ? .some(nil)
                : .some((space.chats ?? []).map { ChatNotifySetting(chatId: $0.id, mode: $0.mode) })
        }
        current.withLock { $0 = resolved }
    }

    private static func pushKey(_ space: ClientState.Space, at index: Int) throws -> SpacePushKey {
        switch (space.metadataKey, space.space) {
        case (let metadataKey?, nil):
            guard let raw = try? Hex.decode(metadataKey), let key = try? SpaceKeys.pushKey(firstMetadataKey: raw) else {
                throw CLIError("spaces[\(index)].metadataKey is not a 32- or 64-byte hex metadata key")
            }
            return key
        case (nil, let path?):
            do { return try SpaceKeyFile.load(path).pushKey } catch { throw CLIError("spaces[\(index)].space: \(error)") }
        default:
            throw CLIError("spaces[\(index)] needs exactly one of metadataKey and space")
        }
    }

    struct Unavailable: Error {}

    func spaces() async throws -> [SpaceNotifySettings] { current.withLock { $0.spaces } }

    func chats(inSpace spaceKey: String) async throws -> [ChatNotifySetting] {
        guard let listing = current.withLock({ $0.chats[spaceKey] }), let chats = listing else { throw Unavailable() }
        return chats
    }
}
