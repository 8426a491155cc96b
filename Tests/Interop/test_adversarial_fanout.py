"""A very wide fan-out (issue 26, item 6), through the real binary and the mock FCM: one Notify
naming the most topics a request may (256), 60 of them held by free accounts with 17 devices each
(within the default limits), so 1,020 deliveries from one request.

Bounds asserted: the Notify is answered within 1 s (the recipients are written as chunks, not
expanded on the request); another account's push sent right after it waits only for the tries
queued before it (the FCM lane's 1,000 in flight: 1.4 s with the Python mock, 3 s allowed);
every one of the 1,020 devices gets exactly one push (nothing lost, nothing doubled)."""
import collections
import concurrent.futures
import os
import time

import pytest

from mockproviders_helper import MockProviders
from nodeclient import Account, Space
from pushnode_node import Node, wait_for
from test_delivery_e2e import node_env

ACCOUNTS, DEVICES = 60, 17


@pytest.fixture(scope="module")
def mock(tmp_path_factory):
    with MockProviders(tmp_path_factory.mktemp("mock")) as m:
        yield m


def register(node, account, space, topic, tokens):
    for token in tokens:
        status, answer, _ = account.call(node, "POST", "/v1/tokens",
                                         {"deviceId": token, "platform": "android", "token": token})
        assert status == 200, answer
    status, answer, _ = account.call(node, "POST", "/v1/subscriptions", {"topics": [space.topic(topic)]})
    assert status == 200, answer


def test_one_notify_to_a_thousand_devices_leaves_no_one_waiting_and_loses_nothing(pushnode_bin, mock):
    node = Node(pushnode_bin, env=node_env(mock))
    try:
        space, sender, run = Space(), Account(), os.urandom(4).hex()
        tokens = {a: [f"fan-{run}-{a}-{d}" for d in range(DEVICES)] for a in range(ACCOUNTS)}
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            for job in [pool.submit(register, node, Account(), space, f"t{a}", tokens[a]) for a in range(ACCOUNTS)]:
                job.result()
        victim = f"victim-{run}"
        register(node, Account(), space, "mine", [victim])

        topics = [space.topic(f"t{i}") for i in range(256)]
        started = time.monotonic()
        status, answer, _ = sender.call(node, "POST", "/v1/notify", sender.notify(topics))
        answered = time.monotonic() - started
        assert status == 200 and answer["queued"] == ACCOUNTS * DEVICES, answer
        sent = time.time()
        assert sender.call(node, "POST", "/v1/notify", sender.notify([space.topic("mine")]))[0] == 200
        victim_push = wait_for(lambda: mock.requests("fcm", victim), interval=0.02, message="the victim's push")[0]
        waited = victim_push["time"] - sent
        expected = {token for devices in tokens.values() for token in devices}
        wait_for(lambda: expected <= {r["token"] for r in mock.requests("fcm")}, timeout=30, message="every device")
        time.sleep(0.5)  # a duplicate would have arrived by now
        counts = collections.Counter(r["token"] for r in mock.requests("fcm") if r["token"] in expected)
        print(f"\nnotify of {ACCOUNTS * DEVICES} answered in {answered:.2f} s; the victim's push left after {waited:.2f} s")
        assert answered < 1.0, answered
        assert waited < 3.0, waited
        assert set(counts.values()) == {1} and len(counts) == len(expected)
    finally:
        node.stop()
