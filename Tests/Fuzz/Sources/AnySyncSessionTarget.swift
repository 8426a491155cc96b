import Foundation
import PushCrypto
@testable import PushAnySync
import PushService
import PushStore

/// A whole yamux session after the credentials handshake, exactly as `AnySyncConnection` runs it:
/// `YamuxSession.handleFrames` over the buffered bytes, streams, windows, the Proto handshake,
/// DRPC and the ten rpcs answered by a real `PushCallHandler` on a `MemoryStore`. The first byte
/// cuts the rest into pieces of its size, as reads from the socket would.
enum AnySyncSessionTarget {
    static let caller = try! AccountID(publicKey: Ed25519.KeyPair(seed: [UInt8](repeating: 3, count: 32)).publicKey)

    static func run(_ bytes: [UInt8]) {
        let (selector, rest) = bytes.selectorAndRest
        let piece = max(1, Int(selector) * 4)
        let handler = AnySyncRPCTarget.handler(caller: caller)
        defer { (handler.service.registry as? MemoryStore)?.close() }
        var session = YamuxSession(limits: .init(maxStreams: 8, maxFrameBytes: 64 * 1024, maxMessageBytes: 64 * 1024))
        var buffer: [UInt8] = []
        var offset = 0
        while offset < rest.count {
            let end = min(rest.count, offset + piece)
            buffer += rest[offset..<end]
            offset = end
            var output: [UInt8] = []
            guard let progress = try? session.handleFrames(in: buffer[...], output: &output,
                                                           dispatch: { handler.handle(rpc: $0, body: $1) }) else { return }
            FuzzCheck.expect(progress.consumed <= buffer.count, "yamux consumed \(progress.consumed) of \(buffer.count)")
            FuzzCheck.expect(session.openStreams <= 8, "\(session.openStreams) streams open, limit 8")
            buffer.removeFirst(progress.consumed)
            if progress.verdict == .close { return }
        }
    }
}
