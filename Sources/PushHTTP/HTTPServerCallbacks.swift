import CMicroHTTPD
import Foundation
import PushNet

/// The C callbacks libmicrohttpd calls on its worker threads. They live in the library (never in
/// main.swift, whose top level is main-actor isolated) and reach the server through `cls`.
///
/// Flow per request: `uriLogged` creates the `RequestContext` (keeping the raw target);
/// `access` is called first with no body (we only read the headers then, except to refuse a
/// declared body over the limit), then with body chunks, then once more with none, when the
/// answer is queued; `completed` releases the context. Answering on the first call would make
/// libmicrohttpd close keep-alive connections, hence the wait for a later call.
enum HTTPServerCallbacks {
    static let uriLogged: pushnode_mhd_uri_logger = { cls, uri, _ in
        let server = Unmanaged<HTTPServer>.fromOpaque(cls!).takeUnretainedValue()
        server.inFlight.increment()
        let context = RequestContext(rawTarget: uri.map { String(cString: $0) } ?? "/")
        return Unmanaged.passRetained(context).toOpaque()
    }

    static let connectionNotified: pushnode_mhd_notify_connection = { cls, connection, _, code in
        guard let cls, let connection else { return }
        let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
        if code == .CONNECTION_NOTIFY_STARTED {
            server.deadlines.connectionStarted(connection, fd: pushnode_mhd_connection_fd(connection))
        } else {
            server.deadlines.connectionClosed(connection)
        }
    }

    static let completed: pushnode_mhd_completed = { cls, connection, contextSlot, _ in
        guard let cls else { return }
        let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
        if let connection { server.deadlines.requestCompleted(connection) }
        if let slot = contextSlot, let raw = slot.pointee {
            Unmanaged<RequestContext>.fromOpaque(raw).release()
            slot.pointee = nil
            server.inFlight.decrement()
        }
    }

    static let access: pushnode_mhd_access_handler = { cls, connection, _, method, _, uploadData, uploadSize, contextSlot in
        guard let cls, let connection, let contextSlot, let raw = contextSlot.pointee, let uploadSize else { return .NO }
        let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
        let context = Unmanaged<RequestContext>.fromOpaque(raw).takeUnretainedValue()
        let limit = server.configuration.maxBodyBytes

        if !context.started {
            context.started = true
            let contextPointer = Unmanaged.passUnretained(context).toOpaque()
            MHD_get_connection_values(connection, .HEADER_KIND, collectHeader, contextPointer)
            if let declared = context.headers["content-length"].flatMap({ Int($0) }), declared > limit {
                // Refuse before reading: libmicrohttpd then closes the connection after the answer.
                server.deadlines.answerQueued(connection)
                return queue(server.responder.respondTooLarge(to: request(context, method, connection), limit: limit),
                             on: connection, closing: true)
            }
            if let declared = context.headers["content-length"].flatMap({ Int($0) }), declared > 0 {
                context.body.reserveCapacity(declared)
            }
            return .YES
        }

        let chunk = uploadSize.pointee
        if chunk > 0 {
            uploadSize.pointee = 0
            if context.tooLarge {
                context.discarded += chunk
                // Drain at most another `limit` bytes so the 413 can be sent; past that, hang up.
                return context.discarded > limit ? MHD_Result.NO : MHD_Result.YES
            }
            if context.body.count + chunk > limit {
                context.tooLarge = true
                context.body = []
                return .YES
            }
            if let uploadData {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: chunk) { bytes in
                    context.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: chunk))
                }
            }
            return .YES
        }

        let incoming = request(context, method, connection)
        server.deadlines.answerQueued(connection)
        let response = context.tooLarge
            ? server.responder.respondTooLarge(to: incoming, limit: limit)
            : server.responder.respond(to: incoming)
        return queue(response, on: connection, closing: server.isQuiesced)
    }

    private static let collectHeader: MHD_KeyValueIterator = { cls, _, key, value in
        guard let cls, let key else { return .YES }
        let context = Unmanaged<RequestContext>.fromOpaque(cls).takeUnretainedValue()
        context.addHeader(name: String(cString: key), value: value.map { String(cString: $0) } ?? "")
        return .YES
    }

    private static func request(_ context: RequestContext, _ method: UnsafePointer<CChar>?,
                                _ connection: OpaquePointer) -> HTTPRequest {
        let (path, query) = context.pathAndQuery
        let peer = ClientAddress.peer(of: pushnode_mhd_connection_fd(connection))
        let client = peer.map { ClientAddress.key(peer: $0, forwardedFor: context.headers["x-forwarded-for"]) }
        return HTTPRequest(method: method.map { String(cString: $0) } ?? "GET", path: path, query: query,
                           headers: context.headers, body: context.body, client: client, peer: peer)
    }

    private static func queue(_ response: HTTPResponse, on connection: OpaquePointer, closing: Bool) -> MHD_Result {
        let mhdResponse = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                                            .RESPMEM_MUST_COPY)
        }
        guard let mhdResponse else { return .NO }
        defer { MHD_destroy_response(mhdResponse) }
        for (name, value) in response.headers {
            _ = MHD_add_response_header(mhdResponse, name, value)
        }
        if closing { _ = MHD_add_response_header(mhdResponse, "Connection", "close") }
        return MHD_queue_response(connection, UInt32(response.status), mhdResponse)
    }
}
