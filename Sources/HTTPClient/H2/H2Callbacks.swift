import CNGHTTP2

/// The C callbacks nghttp2 calls while the engine feeds it bytes. The session's user data is
/// the unretained `H2Connection` (the engine keeps it alive while its session exists); a data
/// source's pointer is the unretained `H2Request` being sent (kept by the connection's streams).
enum H2Callbacks {
    static func install(on callbacks: OpaquePointer) {
        nghttp2_session_callbacks_set_on_header_callback(callbacks, onHeader)
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, onData)
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, onStreamClose)
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, onFrame)
    }

    private static func connection(_ pointer: UnsafeMutableRawPointer?) -> H2Connection? {
        pointer.map { Unmanaged<H2Connection>.fromOpaque($0).takeUnretainedValue() }
    }

    private static let onHeader: nghttp2_on_header_callback = { _, frame, name, nameLength, value, valueLength, _, user in
        guard let frame, let name, let value, let connection = connection(user),
              frame.pointee.hd.type == UInt8(NGHTTP2_HEADERS.rawValue) else { return 0 }
        connection.received(header: String(decoding: UnsafeBufferPointer(start: name, count: nameLength), as: UTF8.self),
                            value: String(decoding: UnsafeBufferPointer(start: value, count: valueLength), as: UTF8.self),
                            stream: frame.pointee.hd.stream_id)
        return 0
    }

    private static let onData: nghttp2_on_data_chunk_recv_callback = { _, _, stream, data, length, user in
        guard let data, let connection = connection(user) else { return 0 }
        connection.received(data: UnsafeRawBufferPointer(start: data, count: length), stream: stream)
        return 0
    }

    private static let onStreamClose: nghttp2_on_stream_close_callback = { _, stream, errorCode, user in
        connection(user)?.closed(stream: stream, errorCode: errorCode)
        return 0
    }

    private static let onFrame: nghttp2_on_frame_recv_callback = { _, frame, user in
        guard let frame, let connection = connection(user) else { return 0 }
        switch UInt32(frame.pointee.hd.type) {
        case NGHTTP2_SETTINGS.rawValue where frame.pointee.hd.flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) == 0:
            connection.receivedSettings()
        case NGHTTP2_GOAWAY.rawValue:
            connection.receivedGoaway(lastStreamID: frame.pointee.goaway.last_stream_id)
        case NGHTTP2_PING.rawValue where frame.pointee.hd.flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) != 0:
            connection.receivedPingAck()
        default: break
        }
        return 0
    }

    /// Copies the next slice of the request body into nghttp2's frame.
    static let readBody: nghttp2_data_source_read_callback = { _, _, buffer, length, flags, source, _ in
        guard let buffer, let flags, let pointer = source?.pointee.ptr else { return Int(NGHTTP2_ERR_CALLBACK_FAILURE.rawValue) }
        let request = Unmanaged<H2Request>.fromOpaque(pointer).takeUnretainedValue()
        let body = request.request.body
        let count = min(length, body.count - request.bodyOffset)
        body.withUnsafeBytes { bytes in
            UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + request.bodyOffset, byteCount: count)
        }
        request.bodyOffset += count
        if request.bodyOffset == body.count { flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue }
        return count
    }
}

/// Builds a request's HEADERS and DATA for nghttp2.
enum H2Frames {
    /// Submits the request on the session; its stream id, or a negative nghttp2 error. The
    /// headers passed `HeaderRules` when the request was accepted (`H2Engine.submit`).
    static func submit(_ request: H2Request, on session: OpaquePointer, userAgent: String) -> Int32 {
        let method = request.request.method.uppercased()
        var fields: [(String, String)] = [(":method", method), (":scheme", "https"), (":authority", request.target.authority),
                                          (":path", request.target.path)]
        var sawUserAgent = false
        for (name, value) in request.request.headers {
            let lower = name.lowercased()
            // Connection-specific fields are not HTTP/2 (RFC 9113 §8.2.2); curl drops them too.
            if ["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "host", "expect"].contains(lower) { continue }
            if lower == "user-agent" { sawUserAgent = true }
            fields.append((lower, value))
        }
        if !sawUserAgent { fields.append(("user-agent", userAgent)) }
        let hasBody = !request.request.body.isEmpty || (method != "GET" && method != "HEAD" && method != "DELETE")
        if hasBody { fields.append(("content-length", String(request.request.body.count))) }

        var bytes: [UInt8] = []
        var ranges: [(name: Range<Int>, value: Range<Int>)] = []
        for (name, value) in fields {
            let nameStart = bytes.count
            bytes.append(contentsOf: name.utf8)
            let valueStart = bytes.count
            bytes.append(contentsOf: value.utf8)
            ranges.append((nameStart..<valueStart, valueStart..<bytes.count))
        }
        bytes.append(0)  // a valid base address even when every field is empty
        return bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
            let base = buffer.baseAddress!
            var nva = ranges.map { range in
                nghttp2_nv(name: base + range.name.lowerBound, value: base + range.value.lowerBound,
                           namelen: range.name.count, valuelen: range.value.count, flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue))
            }
            let user = Unmanaged.passUnretained(request).toOpaque()
            guard hasBody else { return nghttp2_submit_request(session, nil, &nva, nva.count, nil, user) }
            var provider = nghttp2_data_provider(source: nghttp2_data_source(ptr: user), read_callback: H2Callbacks.readBody)
            return nghttp2_submit_request(session, nil, &nva, nva.count, &provider, user)
        }
    }
}
