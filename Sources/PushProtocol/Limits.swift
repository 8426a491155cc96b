/// The request limits of PROTOCOL §7 (`limits.*`), shared by every door.
public struct Limits: Sendable, Equatable, Codable {
    /// Largest sealed payload after base64 decoding (`payload.too_large` above it).
    public var maxPayloadBytes: Int
    /// Most topics in one request.
    public var maxTopicsPerRequest: Int
    /// Most topics one account may hold.
    public var maxSubscriptions: Int
    /// Largest HTTP request body (`request.too_large` above it).
    public var maxBodyBytes: Int
    /// Most registrations one account may hold (`account.limit_reached` past it).
    public var maxRegistrationsPerAccount: Int
    /// Most spaces one account may register (`account.limit_reached` past it).
    public var maxSpacesPerAccount: Int
    /// Accounts the node has not seen that one client address may bring a minute (their requests
    /// are `rate_limited` past it); 0 = no such limit.
    public var newAccountsPerAddress: Int

    public init(maxPayloadBytes: Int = 2816, maxTopicsPerRequest: Int = 256, maxSubscriptions: Int = 10_000,
                maxBodyBytes: Int = 4 * 1024 * 1024, maxRegistrationsPerAccount: Int = 64, maxSpacesPerAccount: Int = 256,
                newAccountsPerAddress: Int = 30) {
        self.maxPayloadBytes = maxPayloadBytes
        self.maxTopicsPerRequest = maxTopicsPerRequest
        self.maxSubscriptions = maxSubscriptions
        self.maxBodyBytes = maxBodyBytes
        self.maxRegistrationsPerAccount = maxRegistrationsPerAccount
        self.maxSpacesPerAccount = maxSpacesPerAccount
        self.newAccountsPerAddress = newAccountsPerAddress
    }

    public static let `default` = Limits()
}
