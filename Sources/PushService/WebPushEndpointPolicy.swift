import Foundation
import PushNet
import PushProtocol

/// The rules for a Web Push endpoint URL (PROTOCOL §3): an absolute `https` URL (also `http` when
/// private endpoints are allowed) whose host resolves only to publicly routable addresses.
///
/// The delivery engine re-checks the addresses at send time (DNS can change); this check refuses
/// the obvious cases at registration. A host whose lookup does not finish within the node's
/// resolver budget (`CachingResolver`, 2 s) is refused too: nothing unchecked is registered, and a
/// nameserver that never answers holds a request thread for the budget, not for glibc's timeouts.
struct WebPushEndpointPolicy: Sendable {
    var allowPrivateEndpoints: Bool
    var resolver: any HostResolving

    /// What the rules say of an endpoint: `undecided` when its host could not be resolved within
    /// the budget (a later try may pass).
    enum Verdict {
        case allowed
        case refused(ServiceError)
        case undecided(ServiceError)
    }

    func check(_ endpoint: String) throws(ServiceError) {
        switch verdict(endpoint) {
        case .allowed: return
        case .refused(let error), .undecided(let error): throw error
        }
    }

    func verdict(_ endpoint: String) -> Verdict {
        guard let url = URLComponents(string: endpoint), let scheme = url.scheme?.lowercased(),
              let host = url.host, !host.isEmpty, url.user == nil, url.password == nil
        else { return .refused(.invalid("token", "token must be an absolute https URL")) }
        let schemes: Set<String> = allowPrivateEndpoints ? ["https", "http"] : ["https"]
        guard schemes.contains(scheme) else { return .refused(.invalid("token", "token must be an absolute https URL")) }
        guard !allowPrivateEndpoints else { return .allowed }

        let bareHost = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let addresses: [IPAddress]
        if let literal = IPAddress(bareHost) {
            addresses = [literal]
        } else {
            switch resolver.resolve(bareHost) {
            case .addresses(let found): addresses = found
            case .notFound: return .refused(Self.notRoutable("the endpoint host does not resolve"))
            case .temporaryFailure:
                // Not answered within the resolver's budget: fail closed, the client may try again.
                return .undecided(Self.notRoutable("the endpoint host could not be resolved now; try again later"))
            }
        }
        if addresses.contains(where: { !AddressClass.of($0).isPubliclyRoutable }) {
            return .refused(Self.notRoutable("the endpoint host resolves to a private or reserved address"))
        }
        return .allowed
    }

    private static func notRoutable(_ message: String) -> ServiceError {
        .refused(.tokenEndpointNotRoutable, message, field: "token")
    }
}
