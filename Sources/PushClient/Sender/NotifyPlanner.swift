import PushCrypto
import PushProtocol

/// Turns a queued call into the exact Notify requests to send (pure apart from the sealer's
/// random nonce). The one home of sealing and request shaping: an any chat call first becomes an
/// `OutgoingPush` (`ChatPushes`), then every push is checked against the node's budget, its topics
/// signed with the space key, split into requests of at most `maxTopicsPerRequest` topics, and its
/// payload sealed with the space's payload key and signed with the account key, once per request.
enum NotifyPlanner {
    enum Failure: Error, Equatable {
        /// Even the bare any payload does not fit the node's limit.
        case unfittable
        /// A caller's payload seals to more than the budget: it is sent as given or not at all.
        case payloadTooLarge(sealedSize: Int, budget: Int)
        /// The sealer threw.
        case sealFailed
        /// The space signer's key is not base58 of 32 bytes.
        case badSpaceKey
        /// The push breaks a rule the node would refuse it for (PushProtocol's shape checks).
        case invalid(APIError)

        var name: String {
            switch self {
            case .unfittable: return "payload_unfittable"
            case .payloadTooLarge: return "payload_too_large"
            case .sealFailed: return "seal_failed"
            case .badSpaceKey: return "bad_space_key"
            case .invalid: return "invalid_push"
            }
        }
    }

    struct Plan: Sendable {
        var requests: [(path: String, body: [UInt8])]
        /// The budget step an any payload needed (nil: no payload, or the caller's own bytes).
        var step: PayloadBudget.Step?
    }

    /// - Parameter providerLimit: the sealed-size bound that still reaches every provider
    ///   (`ProviderPayloadLimit.everyProvider` by default); nil budgets to the node's limit alone.
    static func plan(_ job: SendJob, account: AccountKey, limits: Limits,
                     providerLimit: Int? = ProviderPayloadLimit.everyProvider) -> Result<Plan, Failure> {
        let budget = min(limits.maxPayloadBytes, providerLimit ?? Int.max)
        switch job.work {
        case let .push(push, signer, sealer):
            return requests(for: push, signer: signer, sealer: sealer, account: account, limits: limits, budget: budget)
                .map { Plan(requests: $0, step: nil) }
        case .chat(let call):
            let sealer = call.space.sealer
            switch ChatPushes.push(for: call, sender: account.accountID.string, budget: budget,
                                   sealedOverhead: sealer.sealedOverhead) {
            case .failure(let failure): return .failure(failure)
            case .success(nil): return .success(Plan(requests: [], step: nil))
            case .success(let built?):
                return requests(for: built.push, signer: call.space.signer, sealer: sealer, account: account,
                                limits: limits, budget: budget)
                    .map { Plan(requests: $0, step: built.step) }
            }
        }
    }

    /// The requests of one push: `budget` bounds the sealed payload.
    static func requests(for push: OutgoingPush, signer: any TopicSigner, sealer: any PayloadSealer, account: AccountKey,
                         limits: Limits, budget: Int) -> Result<[(path: String, body: [UInt8])], Failure> {
        if let payload = push.payload, payload.count + sealer.sealedOverhead > budget {
            return .failure(.payloadTooLarge(sealedSize: payload.count + sealer.sealedOverhead, budget: budget))
        }
        guard let signed = try? signer.signedTopics(push.topics) else { return .failure(.badSpaceKey) }
        let chunkSize = max(1, limits.maxTopicsPerRequest)
        // An own-devices push may list no topic at all (the node then queues nothing): one request.
        let chunks = signed.isEmpty ? [[]]
            : stride(from: 0, to: signed.count, by: chunkSize).map { Array(signed[$0..<min($0 + chunkSize, signed.count)]) }

        var requests: [(path: String, body: [UInt8])] = []
        for chunk in chunks {
            // Each request is sealed on its own: a fresh nonce gives a distinct message signature,
            // so the node's idempotency does not take chunk 2 for a repeat of chunk 1.
            var message: NotifyMessage?
            if let payload = push.payload {
                guard let sealed = seal(payload, sealer: sealer, account: account) else { return .failure(.sealFailed) }
                message = sealed
            }
            do {
                requests.append((path: push.path, body: try body(of: push, topics: chunk, message: message)))
            } catch {
                return .failure(.invalid(error))
            }
        }
        return .success(requests)
    }

    /// The JSON body for one chunk, checked by the same shape rules the node applies.
    private static func body(of push: OutgoingPush, topics: [Topic], message: NotifyMessage?) throws(APIError) -> [UInt8] {
        switch push.route {
        case .notify(let kind):
            let request = NotifyRequest(topics: topics, message: message, groupId: push.groupId, kind: kind, ttl: push.ttl,
                                        replaces: push.replaces)
            try request.validateShape()
            return JSON.body(request)
        case .ownDevices(let skipDevice):
            let request = NotifySilentRequest(topics: topics, message: message, groupId: push.groupId, ttl: push.ttl,
                                              deviceId: skipDevice, replaces: push.replaces)
            try request.validateShape()
            return JSON.body(request)
        }
    }

    /// Seals with the space's payload key and signs the sealed bytes with the account key.
    private static func seal(_ plaintext: [UInt8], sealer: any PayloadSealer, account: AccountKey) -> NotifyMessage? {
        guard let sealed = try? sealer.seal(plaintext) else { return nil }
        return NotifyMessage(keyId: sealer.keyId, payload: sealed.bytes, signature: account.sign(sealed.bytes))
    }
}
