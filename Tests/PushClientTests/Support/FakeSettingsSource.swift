import PushSupport
@testable import PushClient

/// Notify settings held in memory; spaces or a space's chats can be made to fail.
final class FakeSettingsSource: NotifySettingsSource, @unchecked Sendable {
    struct Unavailable: Error {}

    private struct State {
        var spaces: [SpaceNotifySettings] = []
        var chats: [String: [ChatNotifySetting]] = [:]
        var failingChats: Set<String> = []
        var spacesFail = false
    }

    private let state = Protected(State())

    func setSpace(_ signer: any TopicSigner, mode: NotifyMode?, chats: [ChatNotifySetting]) {
        state.withLock { s in
            s.spaces.removeAll { $0.spaceKey == signer.spaceKey }
            s.spaces.append(SpaceNotifySettings(signer: signer, mode: mode))
            s.chats[signer.spaceKey] = chats
        }
    }

    func removeSpace(_ spaceKey: String) {
        state.withLock { s in
            s.spaces.removeAll { $0.spaceKey == spaceKey }
            s.chats[spaceKey] = nil
        }
    }

    func failChats(of spaceKey: String, _ fail: Bool = true) {
        state.withLock { s in
            if fail { s.failingChats.insert(spaceKey) } else { s.failingChats.remove(spaceKey) }
        }
    }

    func failSpaces(_ fail: Bool = true) { state.withLock { $0.spacesFail = fail } }

    func spaces() async throws -> [SpaceNotifySettings] {
        try state.withLock { s in
            if s.spacesFail { throw Unavailable() }
            return s.spaces
        }
    }

    func chats(inSpace spaceKey: String) async throws -> [ChatNotifySetting] {
        try state.withLock { s in
            if s.failingChats.contains(spaceKey) { throw Unavailable() }
            return s.chats[spaceKey] ?? []
        }
    }
}

/// Log lines captured for assertions.
final class LogLines: @unchecked Sendable {
    private let lines = Protected<[String]>([])
    var log: PushLog { PushLog { line in self.lines.withLock { $0.append(line) } } }
    var all: [String] { lines.withLock { $0 } }
}
