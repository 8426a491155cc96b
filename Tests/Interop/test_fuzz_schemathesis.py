"""OpenAPI-driven fuzzing (schemathesis) of the live node: every operation of Spec/openapi.yaml,
schema-conforming and schema-violating cases, each request signed per PROTOCOL §2 over the final
serialized body (a `requests` auth hook sees the prepared request), so the cases reach the service
and not only the 401 path. Half of the conforming cases get real space, topic and message
signatures patched in, so they also get past signature checks into the store. Checks: no 5xx,
responses conform to the schema, and the node is still alive afterwards."""
import os
import random
from urllib.parse import urlsplit

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings, strategies as st
from hypothesis.errors import Unsatisfiable
from requests.auth import AuthBase
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance, response_schema_conformance, status_code_conformance)

from conftest import ROOT
from nodeclient import LOCAL_DELIVERY, Account, Space, b64, local_endpoint, webpush_keys
from pushnode_node import Node

CHECKS = [not_a_server_error, response_schema_conformance, status_code_conformance, content_type_conformance]
SPEC = os.path.join(ROOT, "Spec", "openapi.yaml")
EXAMPLES = int(os.environ.get("PUSHNODE_FUZZ_EXAMPLES", "40"))
ENV = {"PUSHNODE_RATE_LIMITS_REGISTRATION_BURST": "1000000", "PUSHNODE_RATE_LIMITS_NOTIFY_BURST": "1000000",
       **LOCAL_DELIVERY}


class SignRequest(AuthBase):
    """PROTOCOL §2 over the prepared request: method, path, query and the exact body bytes."""

    def __init__(self, account):
        self.account = account

    def __call__(self, request):
        body = request.body or b""
        if isinstance(body, str):
            body = body.encode()
        url = urlsplit(request.path_url)
        for name in ("Signature", "Signature-Input", "Content-Digest"):
            request.headers.pop(name, None)
        request.headers.update(self.account.headers(request.method, url.path, body, query=url.query or None))
        return request


class Realistic:
    """Patches generated bodies with valid keys and signatures (seed 1–2: the rest stays fuzzed;
    seed 3: every field made valid, so each operation also gets cases that must succeed)."""

    def __init__(self, account):
        self.account = account
        self.spaces = [Space() for _ in range(3)]

    def patch(self, body, seed):
        if not isinstance(body, dict):
            return body
        rng = random.Random(seed * 7919 + len(repr(body)))
        full = seed == 3
        space = rng.choice(self.spaces)
        topics = body.get("topics")
        if isinstance(topics, list):
            for index, topic in enumerate(topics):
                if isinstance(topic, dict) and isinstance(topic.get("topic"), str) and topic["topic"]:
                    name = topic["topic"] if not full else f"topic-{index % 5}"
                    name = self.account.id if rng.random() < 0.3 else name
                    topic.update(spaceKey=space.space_key, topic=name)
                    if "signature" in topic:
                        topic["signature"] = b64(space.sign(name.encode()))
        message = body.get("message")
        if isinstance(message, dict):
            message.update(self.account.message(os.urandom(rng.randint(28, 2900))))
        if full:
            body.pop("groupId", None)
            body.pop("deviceId", None)
        if "spaceKey" in body and "signature" in body:
            body.update(space.proof(self.account))
        if "platform" in body and "token" in body and (full or body["platform"] == "webpush"):
            p256dh, auth = webpush_keys()
            body.update(platform="webpush", p256dh=p256dh, auth=auth,
                        token=local_endpoint())
            body.pop("environment", None)
            if full:
                body.update(deviceId=f"device-{rng.randrange(4)}")
                body.pop("appId", None)
        return body


@pytest.fixture(scope="module")
def node(pushnode_bin):
    n = Node(pushnode_bin, env=ENV)
    yield n
    n.stop()


def operations():
    schema = schemathesis.openapi.from_path(SPEC)
    return [result.ok() for result in schema.get_all_operations()]


@pytest.mark.timeout(600)
def test_fuzz_every_operation(node):
    account = Account()
    auth = SignRequest(account)
    realistic = Realistic(account)
    base_url = f"http://127.0.0.1:{node.port}"
    ran = {}
    for operation in operations():
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            strategy = operation.as_strategy(generation_mode=mode)
            if mode is GenerationMode.POSITIVE:
                strategy = st.tuples(strategy, st.integers(0, 3)).map(
                    lambda pair: patched(pair[0], realistic, pair[1]))

            @given(case=strategy)
            @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=False,
                      phases=[Phase.explicit, Phase.generate, Phase.shrink],
                      suppress_health_check=list(HealthCheck))
            def run(case):
                response = case.call(base_url=base_url, auth=auth, timeout=10)
                case.validate_response(response, checks=CHECKS)
                key = f"{operation.method.upper()} {operation.path}"
                ran.setdefault(key, set()).add(response.status_code)

            try:
                run()
            except Unsatisfiable:
                # Nothing to violate (no body, no parameters), e.g. GET /healthz in negative mode.
                assert mode is GenerationMode.NEGATIVE
            assert (node.proc.poll() is None), "".join(node.log)
    assert (node.proc.poll() is None)
    assert node.json("GET", "/healthz")[0] == 200
    print("statuses by operation:", {k: sorted(v) for k, v in sorted(ran.items())})
    # The signed cases reached the service: some answered 200 or a service error, not only 401.
    reached = {k: v for k, v in ran.items() if k.startswith(("POST /v1", "PUT /v1")) and v - {401}}
    assert len(reached) >= 8, ran
    successes = {k for k, v in ran.items() if 200 in v}
    assert {"POST /v1/tokens", "POST /v1/notify", "PUT /v1/subscriptions", "POST /v1/spaces"} <= successes, ran


def patched(case, realistic, seed):
    if seed and case.body is not None:  # three in four conforming cases
        case.body = realistic.patch(case.body, seed)
    return case
