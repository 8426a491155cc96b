import PushProtocol

/// The admin listener (`adminListen`): `/metrics`, `/healthz` and `/readyz`, nothing else.
/// Not logged per request (scrapers call it every few seconds).
package struct AdminRouter: HTTPResponder {
    package let operations: OperationsRoutes

    package init(operations: OperationsRoutes) { self.operations = operations }

    package func respond(to request: HTTPRequest) -> HTTPResponse {
        let routes = ["/metrics", "/healthz", "/readyz"]
        guard routes.contains(request.path) else {
            return ErrorJSON.response(APIError(status: 404, code: .notFound, message: "no such route"))
        }
        guard request.method == "GET" else {
            return ErrorJSON.response(APIError(status: 405, code: .methodNotAllowed, message: "\(request.method) is not allowed here"),
                                      extraHeaders: [("Allow", "GET")])
        }
        switch request.path {
        case "/metrics": return operations.renderMetrics()
        case "/healthz": return operations.health()
        default: return operations.ready()
        }
    }

    package func respondTooLarge(to request: HTTPRequest, limit: Int) -> HTTPResponse {
        ErrorJSON.response(APIError(status: 413, code: .tooLarge, message: "request body is over \(limit) bytes"))
    }
}
