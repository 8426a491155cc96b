import PushProtocol

/// The two node answers PushClient reads that PushProtocol has no shared type for. Every request
/// and the other answers use PushProtocol's wire types (`Topic`, `NotifyRequest`,
/// `NotifySilentRequest`, `NotifyResponse`, `SubscribeRequest`, `SetTokenRequest`, …): one
/// definition of the contract for node and client.
public enum NodeWire {
    /// The part of `GET /v1/capabilities` the client reads. Missing limits fall back to the
    /// defaults. (The node builds its answer in PushService and PushHTTP, which a client does not link.)
    public struct Capabilities: Codable, Hashable, Sendable {
        public struct LimitValues: Codable, Hashable, Sendable {
            public var maxPayloadBytes: Int?
            public var maxTopicsPerRequest: Int?
            public var maxSubscriptions: Int?
        }
        public var version: String?
        public var limits: LimitValues?

        /// The limits, each missing one taken from `defaults`.
        public func limits(defaults: Limits) -> Limits {
            var result = defaults
            if let v = limits?.maxPayloadBytes, v > 0 { result.maxPayloadBytes = v }
            if let v = limits?.maxTopicsPerRequest, v > 0 { result.maxTopicsPerRequest = v }
            if let v = limits?.maxSubscriptions, v > 0 { result.maxSubscriptions = v }
            return result
        }
    }

    /// `{"error": {"code", "message", "field"}}` (the node writes it from `APIError`, which is not
    /// decodable).
    public struct ErrorAnswer: Codable, Hashable, Sendable {
        public struct Body: Codable, Hashable, Sendable {
            public var code: APIError.Code
            public var message: String?
            public var field: String?
        }
        public var error: Body
    }
}
