import CCurl

extension TransportError {
    /// Classifies a libcurl result code. `message` is libcurl's text (no URL paths).
    package init(curlCode: CURLcode, message: String) {
        switch curlCode {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT:
            self = .connectFailed
        case CURLE_OPERATION_TIMEDOUT:
            self = .timedOut
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_HTTP2, CURLE_HTTP2_STREAM,
             CURLE_PARTIAL_FILE:
            self = .connectionReset
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
             CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR,
             CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_CRL_BADFILE, CURLE_SSL_INVALIDCERTSTATUS,
             CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED,
             CURLE_SSL_SHUTDOWN_FAILED, CURLE_USE_SSL_FAILED:
            self = .tls(message)
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
            self = .invalidURL
        default:
            self = .other(code: Int(curlCode.rawValue), message: message)
        }
    }

    /// Whether the server reset just this HTTP/2 stream (RST_STREAM) on a connection that
    /// stays usable. libcurl 7.88 reports that and a connection closed under the stream
    /// with the same code; only its message tells them apart.
    static func isStreamReset(_ curlCode: CURLcode, message: String) -> Bool {
        curlCode == CURLE_HTTP2_STREAM && message.contains("was not closed cleanly:")
    }

    /// Whether libcurl's result means the connection or stream went away before a whole
    /// answer arrived: the case the client retries once (if no status line came yet).
    /// libcurl 7.88 reports an HTTP/2 connection closed under open streams as
    /// `CURLE_PARTIAL_FILE`.
    static func isConnectionLoss(_ curlCode: CURLcode) -> Bool {
        switch curlCode {
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_HTTP2, CURLE_HTTP2_STREAM,
             CURLE_PARTIAL_FILE:
            true
        default:
            false
        }
    }
}
