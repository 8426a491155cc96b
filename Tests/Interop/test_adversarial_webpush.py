"""A Web Push service that takes every stream and never answers (issue 26, attack 3), through the
real binary: many free accounts, each within the default limits, register endpoints on it and
one wake reaches them all. Before the fair share their tries took every slot of the Web Push
lane for the 30 s request timeout, so another account's push waited that long.

Bounds asserted (PROTOCOL §7): another account's Web Push to a healthy push service leaves
within 1 s of its Notify; the hostile origin never has more than its window (16 at first)
streams outstanding at once; the API keeps answering."""
import concurrent.futures
import os
import time

import pytest

from mockproviders_helper import MockProviders
from nodeclient import Account, Space, webpush_keys
from pushnode_node import Node, wait_for

ACCOUNTS = int(os.environ.get("PUSHNODE_TEST_HOSTILE_ACCOUNTS", "60"))
ENDPOINTS_PER_ACCOUNT = 17  # + one subscription: within the default registration burst (20)


@pytest.fixture(scope="module")
def services(tmp_path_factory):
    with MockProviders(tmp_path_factory.mktemp("hostile")) as hostile, \
            MockProviders(tmp_path_factory.mktemp("healthy")) as healthy:
        bundle = tmp_path_factory.mktemp("ca") / "bundle.pem"
        bundle.write_text("".join(open(m.ready["caFile"]).read() for m in (hostile, healthy)))
        yield hostile, healthy, str(bundle)


def register(node, account, space, topic, endpoints):
    for endpoint in endpoints:
        p256dh, auth = webpush_keys()
        status, answer, _ = account.call(node, "POST", "/v1/tokens", {
            "deviceId": os.urandom(4).hex(), "platform": "webpush", "token": endpoint, "p256dh": p256dh, "auth": auth})
        assert status == 200, answer
    status, answer, _ = account.call(node, "POST", "/v1/subscriptions", {"topics": [space.topic(topic)]})
    assert status == 200, answer


def notify(node, sender, space, topic):
    status, answer, _ = sender.call(node, "POST", "/v1/notify", sender.notify([space.topic(topic)]))
    assert status == 200, answer
    return answer


def test_endpoints_that_never_answer_do_not_hold_up_anyone_else(pushnode_bin, services):
    hostile, healthy, bundle = services
    node = Node(pushnode_bin, env={"PUSHNODE_TLS_CA_FILE": bundle, "PUSHNODE_WEBPUSH_ALLOW_PRIVATE_ENDPOINTS": "true",
                                   "PUSHNODE_SERVER_SHUTDOWN_TIMEOUT": "1s"})
    try:
        space, sender = Space(), Account()
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            jobs = [pool.submit(register, node, Account(), space, "wake",
                                [f"{hostile.https}/push/hang-{a}-{i}" for i in range(ENDPOINTS_PER_ACCOUNT)])
                    for a in range(ACCOUNTS)]
            for job in jobs:
                job.result()
        victim = Account()
        register(node, victim, space, "mine", [f"{healthy.https}/push/victim"])

        assert notify(node, sender, space, "wake")["queued"] == ACCOUNTS * ENDPOINTS_PER_ACCOUNT
        wait_for(lambda: len(hostile.requests("webpush")) >= 16, message="the hostile origin's first streams")
        time.sleep(0.3)  # the lane has claimed what it will of the wake by now
        sent = time.time()
        notify(node, sender, space, "mine")
        request = wait_for(lambda: healthy.requests("webpush", "victim"), timeout=40, interval=0.02,
                           message="the victim's push")[0]
        waited = request["time"] - sent
        started = time.monotonic()
        status, _, _ = node.request("GET", "/v1/capabilities")
        answered = time.monotonic() - started
        outstanding = len(hostile.requests("webpush"))
        print(f"\n{ACCOUNTS * ENDPOINTS_PER_ACCOUNT} hostile endpoints: the victim's push left after {waited:.2f} s; "
              f"{outstanding} hostile streams; capabilities in {answered:.2f} s")
        assert waited < 1.0, waited
        assert outstanding <= 16, outstanding
        assert status == 200 and answered < 1.0
    finally:
        node.stop()
