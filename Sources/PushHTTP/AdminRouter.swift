import PushProtocol

/// The admin listener (`adminListen`): the operations routes of `RouteTable` (`/metrics`, `/healthz`,
/// `/readyz`, `/status`, `/status.json`), nothing else. Not logged per request (scrapers call it every few seconds).
package struct AdminRouter: HTTPResponder {
    package let operations: OperationsRoutes

    package init(operations: OperationsRoutes) { self.operations = operations }

    package func respond(to request: HTTPRequest) -> HTTPResponse {
        let routes = RouteTable.routes(at: request.path)
        guard routes.contains(where: { if case .operations = $0.target { true } else { false } }) else {
            return ErrorJSON.response(.notFound, "no such route")
        }
        guard case .operations(let endpoint)? = routes.first(where: { $0.method == request.method })?.target else {
            return ErrorJSON.response(.methodNotAllowed, "\(request.method) is not allowed here",
                                      extraHeaders: [("Allow", RouteTable.allowedMethods(at: request.path))])
        }
        return operations.respond(endpoint)
    }

    package func respondTooLarge(to request: HTTPRequest, limit: Int) -> HTTPResponse {
        ErrorJSON.response(.tooLarge, "request body is over \(limit) bytes")
    }
}
