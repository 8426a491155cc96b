extension YamuxSession {
    /// What `handleFrames` did with a buffer.
    struct Progress: Equatable {
        /// Bytes of the buffer's front taken by whole frames (drop them).
        var consumed = 0
        /// Whole frames handled; the idle timer restarts only when this is above 0, so a client
        /// trickling a frame byte by byte is still idle.
        var frames = 0
        var verdict = Verdict.keepGoing
    }

    /// Handles every whole frame at the front of `buffer` (12-byte header, then a Data frame's
    /// payload), appending what to send to `output`. A frame that is not whole yet is left for the
    /// next call. Throws on a malformed header or a Data frame over `limits.maxFrameBytes`: the
    /// caller answers GoAway(protocol error) and closes the session.
    mutating func handleFrames(in buffer: ArraySlice<UInt8>, output: inout [UInt8],
                               dispatch: (String, [UInt8]) -> DRPCReply) throws(AnySyncWireError) -> Progress {
        var progress = Progress()
        var offset = buffer.startIndex
        while progress.verdict == .keepGoing, let header = try YamuxHeader.parse(buffer[offset...]) {
            let payloadLength = header.kind == .data ? Int(header.length) : 0
            guard payloadLength <= limits.maxFrameBytes else {
                throw .tooLarge("yamux data frame of \(payloadLength) bytes")
            }
            guard buffer.endIndex - offset >= YamuxHeader.size + payloadLength else { break }
            let start = offset + YamuxHeader.size
            offset = start + payloadLength
            progress.frames += 1
            progress.verdict = handle(header, payload: Array(buffer[start..<offset]), output: &output, dispatch: dispatch)
        }
        progress.consumed = offset - buffer.startIndex
        return progress
    }
}
