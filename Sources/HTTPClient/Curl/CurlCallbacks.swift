import CCurl

/// The C callbacks libcurl calls on the event-loop thread while a transfer runs. Their
/// context pointer is the unretained `Transfer`, kept alive by the loop's table of
/// active transfers. (They live in the library: a `@convention(c)` closure in
/// `main.swift` would be main-actor isolated and crash on curl's thread.)
enum CurlCallbacks {
    /// `CURLOPT_WRITEFUNCTION`: appends body bytes; returning less than given aborts (body cap).
    static let body: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
        data, size, count, context in
        guard let context else { return 0 }
        let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
        return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
    }

    /// `CURLOPT_HEADERFUNCTION`: one complete header line at a time, status lines included.
    static let header: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
        data, size, count, context in
        guard let context else { return 0 }
        let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
        transfer.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: size * count))
        return size * count
    }

    /// `CURLOPT_OPENSOCKETFUNCTION`, installed only when private addresses are refused:
    /// sees the resolved address before libcurl connects to it.
    static let openSocket: @convention(c) (UnsafeMutableRawPointer?, curlsocktype, UnsafeMutablePointer<curl_sockaddr>?) -> curl_socket_t = {
        context, _, address in
        guard let context, let address else { return pushnode_curl_socket_bad() }
        let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = Int(pushnode_curl_sockaddr_ip(address, &bytes))
        guard transfer.mayConnect(to: Array(bytes.prefix(count))) else { return pushnode_curl_socket_bad() }
        return pushnode_curl_open_socket(address)
    }
}
