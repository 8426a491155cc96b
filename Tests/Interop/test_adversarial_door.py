"""Floods of the any-sync door (issue 26, item 6), through the real binary: one session opening
streams past `anysync.maxStreams`, one sending past a stream's 256 KiB window, one announcing a
giant frame. Each hostile session is ended (or its excess refused) without reading what it claims
to send, while another session's calls, the HTTP door and what that session stored go on.

Bounds asserted: the other session's call and `GET /healthz` answer within 1 s during and after
each flood; a giant frame's GoAway comes within 1 s, before the node read its body; the streams
past 64 are reset; a subscription made before the floods is still there after them."""
import struct
import time

import pytest

from anysync_client import decode_subscriptions, topics_request
from test_anysync import DoorNode, topic

GO_AWAY, DATA, WINDOW_UPDATE = 3, 0, 1
SYN, RST = 1, 8


@pytest.fixture(scope="module")
def node(pushnode_bin):
    n = DoorNode(pushnode_bin)
    yield n
    assert n.stop() == 0


@pytest.fixture(scope="module")
def bystander(node):
    """A session that subscribed before the floods and must see them through."""
    session = node.session()
    session.open_stream()
    session.call("SubscribeAll", topics_request([topic("kept")]))
    yield session
    session.close()


def still_served(node, bystander):
    started = time.monotonic()
    assert [t[1] for t in decode_subscriptions(bystander.call("Subscriptions"))] == ["kept"]
    assert node.json("GET", "/healthz")[0] == 200
    assert time.monotonic() - started < 1.0


def test_streams_past_the_limit_are_reset_and_no_one_else_notices(node, bystander):
    hostile = node.session()
    for stream in range(1, 2 * 200, 2):
        hostile.send_yamux(WINDOW_UPDATE, SYN, stream, 0)
    hostile.sock.settimeout(5)
    reset = set()
    while len(reset) < 200 - 64:
        kind, flags, stream, _, _ = hostile.read_yamux()
        if flags & RST:
            reset.add(stream)
    assert min(reset) == 2 * 64 + 1  # the first 64 were accepted, every later one refused
    still_served(node, bystander)
    hostile.close()


def test_data_past_a_streams_window_ends_that_session_only(node, bystander):
    hostile = node.session()
    hostile.open_stream()
    chunk = b"\0" * 65536
    hostile.sock.settimeout(5)
    closed = False
    try:
        for _ in range(8):  # 512 KiB on a 256 KiB window: the node never asked for more
            hostile.send_yamux(DATA, 0, hostile.stream, len(chunk), chunk)
        while True:
            kind, flags, stream, code, _ = hostile.read_yamux()
            if kind == GO_AWAY or flags & RST:
                closed = True
                break
    except (ConnectionError, OSError):
        closed = True
    assert closed
    still_served(node, bystander)


def test_a_giant_frame_is_refused_before_its_body(node, bystander):
    hostile = node.session()
    hostile.open_stream()
    started = time.monotonic()
    hostile.sock.sendall(struct.pack(">BBHII", 0, DATA, 0, hostile.stream, 1 << 30))  # 1 GiB announced
    hostile.sock.settimeout(2)
    kind, _, _, code, _ = hostile.read_yamux()
    assert (kind, code) == (GO_AWAY, 1)  # protocol error
    assert time.monotonic() - started < 1.0
    still_served(node, bystander)
