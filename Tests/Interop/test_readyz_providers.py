"""/readyz names a provider whose credentials are refused at run time, with the reason and since
when: the node against the mock providers, the mock's keys revoked (`/_mock/revoke {"keys":
true}`), a Notify, then /readyz — still 200 (the API keeps queueing durably) — shows FCM and APNs
refused in the providers' own words; once the keys work again, the next delivery heals them."""
import datetime

import pytest

from mockproviders_helper import MockProviders
from pushnode_node import Node, wait_for
from test_delivery_e2e import BUNDLE, apns_token, node_env, setup_pair, uid


@pytest.fixture(scope="module")
def mock(tmp_path_factory):
    with MockProviders(tmp_path_factory.mktemp("mock")) as m:
        yield m


@pytest.fixture
def node(pushnode_bin, mock):
    n = Node(pushnode_bin, env=node_env(mock))
    yield n
    n.stop()
    mock.reset()


def readyz(node):
    status, _, body = node.request("GET", "/readyz")
    import json
    return status, json.loads(body)


def test_refused_credentials_show_in_readyz_with_the_reason_and_when(node, mock):
    sender, receiver, space = setup_pair(node)
    receiver.register("android", uid("android-"), device="phone")
    receiver.register("apns", apns_token(), device="iphone")
    receiver.subscribe(space, "chat")
    status, ready = readyz(node)
    assert status == 200 and ready["providers"] == {"fcm": "healthy", "apns": "healthy", "webpush": "healthy"}
    assert set(ready["providerDetail"]["apns"]) == {"state", "since"}

    # The FCM lane mints its access token at start; revoking before that would show the mint's
    # refusal instead (gateway.credentials_unavailable), so wait for it.
    wait_for(lambda: mock.stats()["tokenMints"] >= 1, message="the node's first access token")
    revoked_at = datetime.datetime.now(datetime.timezone.utc)
    mock.control("POST", "/_mock/revoke", {"keys": True})
    sender.notify(space, "chat")

    def refused():
        ready = readyz(node)[1]
        return ready if ready["providers"]["fcm"] == ready["providers"]["apns"] == "credentials_refused" else None
    ready = wait_for(refused, message="both providers refused in /readyz")
    status, _ = readyz(node)
    assert status == 200 and ready["status"] == "ready" and ready["providers"]["webpush"] == "healthy"
    apns, fcm = ready["providerDetail"]["apns"], ready["providerDetail"]["fcm"]
    assert (apns["state"], apns["reason"], apns["providerReason"]) == \
        ("credentials_refused", "apns.provider_token", "InvalidProviderToken")
    assert (fcm["state"], fcm["reason"], fcm["providerReason"]) == \
        ("credentials_refused", "fcm.unauthenticated", "UNAUTHENTICATED")
    for detail in (apns, fcm):
        since = datetime.datetime.strptime(detail["since"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc)
        assert revoked_at - datetime.timedelta(seconds=1) <= since <= datetime.datetime.now(datetime.timezone.utc)
    assert node.metric("pushnode_provider_healthy", provider="apns") == 0
    log = node.text_log()
    assert "event=credentials provider=apns reason=apns.provider_token health=credentials_refused" in log

    # The keys work again: the next push is delivered and the providers are healthy once more.
    mock.reset()
    sender.notify(space, "chat", group="chat-2")
    wait_for(lambda: readyz(node)[1]["providers"] == {"fcm": "healthy", "apns": "healthy", "webpush": "healthy"},
             message="providers healthy again")
    assert "reason" not in readyz(node)[1]["providerDetail"]["apns"]
