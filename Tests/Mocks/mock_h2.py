"""An HTTP/2 server connection on asyncio + h2: requests in, scripted answers out,
with flow control, per-connection stream counting, RST_STREAM and GOAWAY on demand."""

import asyncio

import h2.config
import h2.connection
import h2.errors
import h2.events
import h2.exceptions
import h2.settings
from hyperframe.frame import GoAwayFrame

from mock_http import Request, mark_answered
from mock_state import ConnectionStats


class _Stream:
    __slots__ = ("headers", "body")

    def __init__(self, headers):
        self.headers = headers
        self.body = bytearray()


class H2Connection(asyncio.Protocol):
    def __init__(self, app, state, scheme, max_streams):
        self.app = app
        self.state = state
        self.scheme = scheme
        self.max_streams = max_streams
        self.conn = h2.connection.H2Connection(config=h2.config.H2Configuration(
            client_side=False, header_encoding=None, validate_inbound_headers=False,
            normalize_inbound_headers=False, validate_outbound_headers=False,
            normalize_outbound_headers=False))
        self.streams = {}
        self.pending_data = {}  # stream id -> (bytearray left to send, end)
        self.transport = None
        self.stats = ConnectionStats("h2", scheme == "https")
        self.closed = False
        self.draining = False
        self.highest_stream = 0

    # asyncio.Protocol

    def connection_made(self, transport):
        self.transport = transport
        self.state.add_connection(self.stats)
        self.app.connections.add(self)
        self.conn.local_settings = h2.settings.Settings(client=False, initial_values={
            h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS: self.max_streams,
            h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: 1 << 20,
            h2.settings.SettingCodes.MAX_HEADER_LIST_SIZE: 65536,
        })
        self.conn.initiate_connection()
        self.conn.increment_flow_control_window(1 << 24)
        self.flush()

    def connection_lost(self, exc):
        self.closed = True
        self.stats.open = False
        self.stats.open_streams = 0
        self.app.connections.discard(self)

    def data_received(self, data):
        try:
            events = self.conn.receive_data(data)
        except h2.exceptions.ProtocolError:
            self.flush()
            self.transport.close()
            return
        for event in events:
            if isinstance(event, h2.events.RequestReceived):
                if self.draining:  # after our GOAWAY: refuse, the client retries elsewhere
                    self.conn.reset_stream(event.stream_id, h2.errors.ErrorCodes.REFUSED_STREAM)
                    continue
                self.streams[event.stream_id] = _Stream(event.headers)
                self.highest_stream = max(self.highest_stream, event.stream_id)
                self.stats.stream_opened()
            elif isinstance(event, h2.events.DataReceived):
                stream = self.streams.get(event.stream_id)
                if stream is not None:
                    stream.body += event.data
                if event.flow_controlled_length:
                    self.conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            elif isinstance(event, h2.events.StreamEnded):
                if event.stream_id in self.streams:
                    self.dispatch(event.stream_id)
            elif isinstance(event, h2.events.StreamReset):
                self.forget(event.stream_id)
            elif isinstance(event, h2.events.WindowUpdated):
                self.resume_sending()
            elif isinstance(event, h2.events.ConnectionTerminated):
                self.flush()
                self.transport.close()
                return
        self.flush()

    # requests

    def dispatch(self, stream_id):
        stream = self.streams.get(stream_id)
        if stream is None:
            return
        method = target = authority = None
        headers = []
        for name, value in stream.headers:
            if name[:1] == b":":
                if name == b":method":
                    method = value.decode()
                elif name == b":path":
                    target = value.decode()
                elif name == b":authority":
                    authority = value.decode()
            else:
                headers.append((name.decode().lower(), value.decode("utf-8", "replace")))
        if authority is None:
            authority = next((v for k, v in headers if k == "host"), "")
        del self.streams[stream_id]
        request = Request(method, target or "/", headers, bytes(stream.body), "2", self.scheme, authority,
                          self.stats)
        response = self.app.handle(request)
        if response.delay_ms:
            asyncio.get_running_loop().call_later(response.delay_ms / 1000, self.answer, stream_id, response)
        else:
            self.answer(stream_id, response)

    def answer(self, stream_id, response):
        if self.closed:
            return
        self.stats.stream_closed()
        mark_answered(response)
        try:
            if response.action == "reset":
                self.conn.reset_stream(stream_id, h2.errors.ErrorCodes.INTERNAL_ERROR)
            elif response.action == "goaway":
                # Refuse this stream: last processed id is below it.
                self.conn.close_connection(h2.errors.ErrorCodes.NO_ERROR, last_stream_id=max(0, stream_id - 2))
                self.flush()
                self.transport.close()
                return
            elif response.action == "close":
                self.transport.abort()
                return
            else:
                headers = [(b":status", str(response.status).encode())]
                headers += [(k.encode(), str(v).encode()) for k, v in response.headers]
                headers.append((b"content-length", str(len(response.body)).encode()))
                if response.body:
                    self.conn.send_headers(stream_id, headers)
                    self.pending_data[stream_id] = [memoryview(response.body), 0]
                    self.send_pending(stream_id)
                else:
                    self.conn.send_headers(stream_id, headers, end_stream=True)
        except (h2.exceptions.StreamClosedError, h2.exceptions.ProtocolError):
            self.pending_data.pop(stream_id, None)
        self.flush()

    def goaway(self):
        """Graceful GOAWAY: streams already received are answered, then the connection
        closes. The frame is written by hand because h2's close_connection() would stop
        the connection from answering the streams in flight."""
        if self.closed:
            return
        self.flush()
        frame = GoAwayFrame(stream_id=0, last_stream_id=self.highest_stream, error_code=0)
        self.transport.write(frame.serialize())
        self.draining = True
        self.maybe_close_drained()

    def maybe_close_drained(self):
        if self.draining and self.stats.open_streams <= 0 and not self.pending_data:
            self.transport.close()

    # flow-controlled sending

    def send_pending(self, stream_id):
        entry = self.pending_data.get(stream_id)
        if entry is None:
            return
        data, offset = entry
        try:
            while offset < len(data):
                window = self.conn.local_flow_control_window(stream_id)
                chunk = min(window, self.conn.max_outbound_frame_size, len(data) - offset)
                if chunk <= 0:
                    entry[1] = offset
                    return
                end = offset + chunk >= len(data)
                self.conn.send_data(stream_id, data[offset:offset + chunk].tobytes(), end_stream=end)
                offset += chunk
        except (h2.exceptions.StreamClosedError, h2.exceptions.ProtocolError):
            pass
        del self.pending_data[stream_id]

    def resume_sending(self):
        for stream_id in list(self.pending_data):
            self.send_pending(stream_id)

    def forget(self, stream_id):
        if self.streams.pop(stream_id, None) is not None:
            self.stats.stream_closed()
        self.pending_data.pop(stream_id, None)

    def flush(self):
        data = self.conn.data_to_send()
        if data and not self.closed:
            self.transport.write(data)
        if self.draining:
            self.maybe_close_drained()
