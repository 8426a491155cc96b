"""Clients that trickle bytes to hold a connection open, against the real `pushnode serve`: each
door closes them once their timeout passes, however often a byte arrives (PROTOCOL §7 Bounds),
while well-behaved clients are served throughout. Timeouts are set to 2 s through PUSHNODE_*."""
import socket
import threading
import time

import pytest

from test_anysync import DoorNode

TIMEOUT = 2.0


@pytest.fixture(scope="module")
def node(pushnode_bin):
    n = DoorNode(pushnode_bin, env={
        "PUSHNODE_SERVER_REQUEST_TIMEOUT": "2s",
        "PUSHNODE_ANYSYNC_HANDSHAKE_TIMEOUT": "2s",
        "PUSHNODE_ANYSYNC_IDLE_TIMEOUT": "2s",
    })
    yield n
    assert n.stop() == 0


def seconds_until_closed(sock, head, trickle, every=0.3):
    """Sends `head`, then one byte of `trickle` every `every` seconds from a thread; returns the
    seconds until the node closed the connection (a read gives end of file or a reset)."""
    sock.sendall(head)
    started = time.monotonic()

    def send():
        for byte in trickle:
            time.sleep(every)
            try:
                sock.sendall(bytes([byte]))
            except OSError:
                return

    threading.Thread(target=send, daemon=True).start()
    sock.settimeout(15)
    try:
        while sock.recv(65536):
            pass
    except ConnectionResetError:
        pass
    return time.monotonic() - started


def test_a_trickled_http_request_head_is_closed_after_the_request_timeout(node):
    with socket.create_connection(("127.0.0.1", node.port)) as sock:
        elapsed = seconds_until_closed(sock, b"GET /v1/capabilities HTTP/1.1\r\nHost: x\r\n", b"X-Slow: " + b"a" * 60)
    assert TIMEOUT - 0.2 <= elapsed < TIMEOUT + 3, elapsed
    status, _, _ = node.request("GET", "/v1/capabilities")
    assert status == 200


def test_a_trickled_tls_handshake_is_closed_after_the_handshake_timeout(node):
    with socket.create_connection(("127.0.0.1", node.door)) as sock:
        # A TLS record header announcing a ClientHello whose bytes never all come.
        elapsed = seconds_until_closed(sock, b"\x16\x03\x01\x02\x00", b"\x01" * 60)
    assert TIMEOUT - 0.2 <= elapsed < TIMEOUT + 3, elapsed


def test_a_yamux_frame_trickled_byte_by_byte_is_idle(node):
    """After the handshake, a ping header sent a byte every 0.3 s never completes a frame before
    the idle timeout: the session is closed as if silent; a session that pings in time stays."""
    slow = node.session()
    ping = bytes([0, 2, 0, 1, 0, 0, 0, 0, 0, 0, 0, 9])
    # One whole ping restarts the idle timer; then three more, a byte every 0.3 s.
    elapsed = seconds_until_closed(slow.sock, ping, ping * 3)
    assert TIMEOUT - 0.2 <= elapsed < TIMEOUT + 3, elapsed
    good = node.session()
    good.open_stream()
    for _ in range(3):
        time.sleep(TIMEOUT / 2)
        good.send_yamux(2, 1, 0, 7)  # ping SYN: a whole frame
        while True:
            kind, flags, _, value, _ = good.read_yamux()
            if kind == 2:
                assert (flags, value) == (2, 7)
                break
    assert good.call("Subscriptions") == bytes.fromhex("0a00")
    good.close()
