"""python -m pushsender <command>: the example as a command line (JSON on stdout, exit 1 on errors).

    account-new --out FILE                         a new account key file (hex seed, 0600)
    space-new --out FILE                           a new random space file (0600)
    register-space --node URL --account FILE --space FILE
    subscribe --node URL --account FILE --space FILE --topic T [--topic T …]
    notify --node URL --account FILE --space FILE --topic T … (--payload-json JSON | --payload-file F | --wake)
           [--kind message|silent|call|clear] [--group-id G] [--ttl S] [--replaces] [--own-devices]
    open --space FILE --sender ACCOUNT_ID --data JSON|-
    selfcheck [--vectors DIR]                      reproduce Spec/vectors/
"""
import argparse
import json
import sys

from . import selfcheck
from .encoding import b64
from .keys import Account, Space
from .node import KINDS, Node, NodeError
from .receiver import OpenError, open_push


def _node(args):
    return Node(args.node, Account.load(args.account))


def _payload(args):
    if args.payload_json is not None:
        json.loads(args.payload_json)  # refuse what is not JSON; the bytes are sent as given
        return args.payload_json.encode()
    if args.payload_file is not None:
        with open(args.payload_file, "rb") as f:
            return f.read()
    return None


def run(args):
    if args.command == "account-new":
        account = Account.generate()
        account.save(args.out)
        return {"accountId": account.id, "path": args.out}
    if args.command == "space-new":
        space = Space.generate()
        space.save(args.out)
        return {"spaceKey": space.space_key, "keyId": space.key_id, "path": args.out}
    if args.command == "register-space":
        return _node(args).register_space(Space.load(args.space))
    if args.command == "subscribe":
        return {"count": _node(args).subscribe(Space.load(args.space), args.topic)}
    if args.command == "notify":
        node, space = _node(args), Space.load(args.space)
        replaces = True if args.replaces else None
        if args.own_devices:
            return node.notify_own_devices(space, _payload(args), group_id=args.group_id, ttl=args.ttl, replaces=replaces)
        return node.notify(space, args.topic, _payload(args), kind=args.kind, group_id=args.group_id, ttl=args.ttl,
                           replaces=replaces)
    if args.command == "open":
        space = Space.load(args.space)
        data = json.loads(sys.stdin.read() if args.data == "-" else args.data)
        plaintext = open_push(data, {space.key_id: space.payload_key}, args.sender)
        if plaintext is None:
            return {"opened": False, "reason": "no_message"}
        answer = {"opened": True, "plaintext": b64(plaintext)}
        try:
            answer["payload"] = json.loads(plaintext)
        except ValueError:
            pass
        return answer
    raise AssertionError(args.command)


def parser():
    p = argparse.ArgumentParser(prog="python -m pushsender", description="a pushnode sender and receiver")
    commands = p.add_subparsers(dest="command", required=True)
    for name in ("account-new", "space-new"):
        commands.add_parser(name).add_argument("--out", required=True)
    for name in ("register-space", "subscribe", "notify"):
        c = commands.add_parser(name)
        c.add_argument("--node", default="http://127.0.0.1:8765")
        c.add_argument("--account", required=True)
        c.add_argument("--space", required=True)
        if name != "register-space":
            c.add_argument("--topic", action="append", default=[])
    notify = commands.choices["notify"]
    what = notify.add_mutually_exclusive_group(required=True)
    what.add_argument("--payload-json")
    what.add_argument("--payload-file")
    what.add_argument("--wake", action="store_true")
    notify.add_argument("--kind", choices=KINDS, default="message")
    notify.add_argument("--group-id")
    notify.add_argument("--ttl", type=int)
    notify.add_argument("--replaces", action="store_true")
    notify.add_argument("--own-devices", action="store_true")
    opener = commands.add_parser("open")
    opener.add_argument("--space", required=True)
    opener.add_argument("--sender", required=True)
    opener.add_argument("--data", required=True)
    commands.add_parser("selfcheck").add_argument("--vectors", default=selfcheck.DEFAULT_VECTORS)
    return p


def main(argv=None):
    args = parser().parse_args(argv)
    if args.command == "selfcheck":
        return selfcheck.main(["--vectors", args.vectors])
    try:
        print(json.dumps(run(args), sort_keys=True))
    except (NodeError, OpenError, OSError, ValueError) as error:
        print(f"pushsender: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
