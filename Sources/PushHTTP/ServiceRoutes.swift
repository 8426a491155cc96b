import Foundation
import PushCrypto
import PushProtocol
import PushService
import PushSupport

/// The signed `/v1` routes of PROTOCOL §3: the `RouteTable` call of the request's route → decode →
/// `PushService` → JSON.
///
/// The HTTP layer authenticates the request (RFC 9421), applies rate limits by the route's class,
/// and answers 404/405 when `handle` returns nil. Errors are rendered by `ErrorJSON`: refusals with
/// their code, storage failures as 503 `storage.unavailable` and anything unexpected as 500
/// `internal`, both without details.
package final class ServiceRoutes: Sendable {
    private let service: PushService
    private let onInternalError: @Sendable (any Error) -> Void

    package convenience init(service: PushService) {
        self.init(service: service, onInternalError: { _ in })
    }

    /// `onInternalError` sees each storage failure (503) and unexpected error (500) (for a log line; store errors carry
    /// SQLite's message and code, never bound values, so they hold no tokens or payloads).
    package init(service: PushService, onInternalError: @escaping @Sendable (any Error) -> Void) {
        self.service = service
        self.onInternalError = onInternalError
    }

    /// An authenticated `/v1` request (every route but `GET /v1/capabilities`). nil = no signed route
    /// for this method + path (the HTTP layer answers 404/405).
    package func handle(_ request: HTTPRequest, caller: AccountID) -> HTTPResponse? {
        guard case .service(_, let call)? = RouteTable.route(method: request.method, path: request.path)?.target else {
            return nil
        }
        do {
            let answer = try call(service, request, caller)
            return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: try JSON.encode(answer))
        } catch let error as ServiceError {
            if case .storageFailed(let underlying) = error { onInternalError(underlying) }
            return ErrorJSON.response(error)
        } catch let error as APIError {
            return ErrorJSON.response(error)
        } catch {
            onInternalError(error)
            return ErrorJSON.internalError
        }
    }
}
