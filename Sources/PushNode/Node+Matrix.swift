import PushHTTP
import PushMatrix

extension Node {
    /// The router's gateway for `matrix.enabled`: the door once storage is open.
    static func matrixGateway(enabled: Bool, door: @escaping @Sendable () -> MatrixDoor?) -> APIRouter.GatewayHandler? {
        guard enabled else { return nil }
        return { request in matrixAnswer(request, door: door()) }
    }

    /// The Matrix door's answer as HTTP: the discovery object to `GET`; to `POST`, the door's
    /// answer, or while storage is still opening a 503 the homeserver retries.
    static func matrixAnswer(_ request: HTTPRequest, door: MatrixDoor?) -> (status: Int, headers: [(String, String)], body: [UInt8]) {
        let answer: MatrixDoor.Answer
        if request.method == "GET" {
            answer = MatrixDoor.discovery
        } else if let door {
            answer = door.notify(body: request.body, source: request.peer)
        } else {
            answer = MatrixDoor.Answer(MatrixError(.unknown, "the node is starting; retry", retryAfter: 1))
        }
        return (answer.status, answer.headers, answer.body)
    }
}
