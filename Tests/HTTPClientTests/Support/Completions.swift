import HTTPClient
import PushSupport

/// Sends many requests through the callback API and gathers every result.
enum Completions {
    static func sendAll(_ requests: [ClientRequest], with client: HTTPClient) async -> [Result<ClientResponse, TransportError>] {
        let results = Protected<[Result<ClientResponse, TransportError>]>([])
        return await withCheckedContinuation { continuation in
            for request in requests {
                client.send(request) { result in
                    let all = results.withLock { all -> [Result<ClientResponse, TransportError>]? in
                        all.append(result)
                        return all.count == requests.count ? all : nil
                    }
                    if let all { continuation.resume(returning: all) }
                }
            }
        }
    }
}

extension Result {
    var value: Success? {
        if case .success(let value) = self { return value }
        return nil
    }

    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
