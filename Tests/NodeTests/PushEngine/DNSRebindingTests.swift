import Dispatch
import Foundation
import PushProtocol
import PushSupport
import Testing
@testable import PushDelivery
@testable import PushEngine
@testable import PushNet
@testable import PushService
@testable import PushStore

/// A resolver whose answers the test changes between registration and send, as a hostile DNS
/// server would (DNS rebinding).
final class ChangingResolver: HostResolving, Sendable {
    private let answers: Protected<[String: HostResolution]>

    init(_ answers: [String: HostResolution]) { self.answers = Protected(answers) }

    func answer(_ host: String, with resolution: HostResolution) { answers.withLock { $0[host] = resolution } }

    func resolve(_ host: String) -> HostResolution { answers.withLock { $0[host] } ?? .notFound }
}

/// An endpoint host that resolved to a public address at registration and to a private one at
/// send time never receives a push: the send-time check refuses it, and where DNS fooled both
/// checks, the connect-time guard refuses the address actually dialled.
@Suite struct DNSRebindingTests {
    static let publicAnswer = HostResolution.addresses([.v4([93, 184, 216, 34])])

    func register(_ endpoint: String, resolver: ChangingResolver) throws -> String {
        let store = MemoryStore()
        defer { store.close() }
        let service = PushService(store: store, configuration: .init(), resolver: resolver, clock: { t0 })
        let request = SetTokenRequest(deviceId: "d", platform: .webpush, token: endpoint, p256dh: validP256dh, auth: validAuth)
        return try service.setToken(request, caller: account(1).accountID).registrationId
    }

    @Test(arguments: [
        HostResolution.addresses([.v4([127, 0, 0, 1])]),
        .addresses([.v4([10, 0, 0, 7])]),
        .addresses([IPAddress("2002:c0a8:101::1")!]),   // 6to4 of 192.168.1.1
        .addresses([IPAddress("64:ff9b::a00:1")!]),     // NAT64 of 10.0.0.1
        .addresses([IPAddress("::ffff:169.254.169.254")!]),
        .addresses([.v4([93, 184, 216, 34]), .v4([192, 168, 0, 1])]),
    ])
    func theSendTimeCheckSeesTheNewAnswer(rebound: HostResolution) throws {
        let resolver = ChangingResolver(["push.rebind.example": Self.publicAnswer])
        _ = try register("https://push.rebind.example/push/1", resolver: resolver)  // accepted: public now
        resolver.answer("push.rebind.example", with: rebound)
        #expect(!RoutableHostCheck(resolver: .warmed(resolver, ["push.rebind.example"])).isRoutable("push.rebind.example"))
        // The register-time check, asked now, agrees: the same classifier decides both.
        let refusal = serviceRefusal { _ = try register("https://push.rebind.example/push/2", resolver: resolver) }
        #expect(refusal?.code == .tokenEndpointNotRoutable)
    }

    @Test func theConnectTimeGuardRefusesWhatDNSHidFromBothChecks() throws {
        // Registration and the send-time check are both told `localhost` is public; the HTTP
        // client resolves it itself at connect time (127.0.0.1 / ::1) and refuses to dial.
        let resolver = ChangingResolver(["localhost": Self.publicAnswer])
        _ = try register("https://localhost:9/push/1", resolver: resolver)
        #expect(RoutableHostCheck(resolver: .warmed(resolver, ["localhost"])).isRoutable("localhost"))

        let transport = try HTTPDeliveryTransport(caFile: nil, allowPrivateEndpoints: false)
        defer { transport.shutdown() }
        let answered = Box<Result<ProviderAnswer, TransportFailure>?>(nil)
        let done = DispatchSemaphore(value: 0)
        transport.send(OutboundRequest(url: "https://localhost:9/push/1", headers: [("ttl", "60")], body: [1, 2, 3]),
                       provider: .webpush, timeout: .seconds(5)) { result in
            answered.mutate { $0 = result }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(answered.current == .failure(.forbiddenAddress))
        #expect(TransportFailure.forbiddenAddress.outcome == .rejected(DeliveryReason(.notRoutable, detail: "transport.forbidden_address")))
    }
}
