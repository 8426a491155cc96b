import PushProtocol

/// One request/answer exchange with the node, errors as `PushClientError`.
enum NodeCall {
    /// Sends once; a 2xx answer is decoded as `Answer`, anything else throws.
    static func send<Answer: Decodable>(_ transport: any NodeTransport, _ method: String, _ path: String,
                                        body: [UInt8]? = nil, as: Answer.Type) async throws(PushClientError) -> Answer {
        let response = try await exchange(transport, method, path, body: body)
        do {
            return try JSON.decode(Answer.self, from: response.body)
        } catch {
            throw PushClientError(code: .badAnswer, message: "\(method) \(path): answer does not decode", status: response.status)
        }
    }

    /// Sends once; returns a 2xx answer, throws for a network error or any other status.
    static func exchange(_ transport: any NodeTransport, _ method: String, _ path: String,
                         body: [UInt8]? = nil) async throws(PushClientError) -> NodeResponse {
        let response: NodeResponse
        do {
            response = try await transport.send(method: method, path: path, query: nil, body: body)
        } catch {
            throw PushClientError.network(error)
        }
        guard (200..<300).contains(response.status) else { throw PushClientError.rejected(response) }
        return response
    }
}
