#!/bin/bash
# The container image, checked on a machine where no registry image can be pulled and no container
# runtime can start (no cgroups or rlimits for one): `make image-test`.
#   Tests/Container/image-test.sh BINARY
# 1. The base: mmdebstrap makes Debian 12 (minbase, as debian:bookworm-slim is), imported under the
#    official name docker.io/library/debian:bookworm-slim (kept in .build/image between runs).
# 2. The Dockerfile's stage image: contrib/container/stage-image.sh lays out BINARY (the release
#    binary built here) as the build stage would, imported as localhost/pushnode-stage.
# 3. `podman build --isolation chroot --target runtime --build-arg STAGE=localhost/pushnode-stage`:
#    the Dockerfile's runtime stage as written, its RUN steps in a chroot.
# 4. The image's root filesystem is copied out and run as the image runs: its entrypoint and command
#    under `chroot --userspec` as its user, with its environment, in a network namespace of its own
#    (its ports are the real ones, 8765 and 9765). Checked: /readyz on the API, /metrics on the
#    admin listener only, the HEALTHCHECK command passing (and failing once the node is gone), the
#    state written to the volume as the image's user, a drain on SIGTERM that exits 0, no compiler,
#    -dev package or curl inside. Prints the image size.
set -euo pipefail
binary=$(realpath "$1")
root_dir=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root_dir"
cache="$root_dir/.build/image"
work=$(mktemp -d /var/tmp/pushnode-image.XXXXXX)
podman=(podman --root "$cache/storage" --runroot "$cache/run" --storage-driver vfs)
mounted=()
cleanup() {
    for m in "${mounted[@]}"; do umount -l "$m" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "image-test: FAILED: $*" >&2; exit 1; }
step() { echo "image-test: $*"; }
started=$(date +%s)
mkdir -p "$cache"

base=docker.io/library/debian:bookworm-slim
if ! "${podman[@]}" image exists "$base"; then
    if [ ! -s "$cache/base.tar" ]; then
        mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
        step "making $base with mmdebstrap (${mirror:-http://deb.debian.org/debian})"
        mmdebstrap --quiet --variant=minbase --dpkgopt=path-exclude=/usr/share/doc/* \
            --dpkgopt=path-exclude=/usr/share/man/* --dpkgopt=path-exclude=/usr/share/locale/* \
            bookworm "$work/base.tar" ${mirror:+"$mirror"}
        mv "$work/base.tar" "$cache/base.tar"
    fi
    "${podman[@]}" import --quiet "$cache/base.tar" "$base" >/dev/null
fi

step "staging $binary"
contrib/container/stage-image.sh "$binary" "$work/stage-root/stage"
tar -C "$work/stage-root" -cf "$work/stage.tar" .
"${podman[@]}" import --quiet "$work/stage.tar" localhost/pushnode-stage:test >/dev/null

step "podman build --isolation chroot --target runtime"
"${podman[@]}" build --quiet --format docker --isolation chroot --pull=never --target runtime \
    --build-arg STAGE=localhost/pushnode-stage:test -t localhost/pushnode:test . >/dev/null

inspect() { "${podman[@]}" image inspect --format "$1" localhost/pushnode:test; }
user=$(inspect '{{.Config.User}}')
[ "$user" = pushnode ] || fail "the image runs as '$user', not pushnode"
inspect '{{json .Config.Volumes}}' | grep -q '"/var/lib/pushnode"' || fail "no volume /var/lib/pushnode"
health=$(inspect '{{json .Config.Healthcheck.Test}}')
entry=$(inspect '{{json .Config.Entrypoint}}') cmd=$(inspect '{{json .Config.Cmd}}')
env_json=$(inspect '{{json .Config.Env}}')
step "user $user, entrypoint $entry $cmd, healthcheck $health"

rootfs="$work/rootfs"
mkdir "$rootfs"
image_dir=$("${podman[@]}" image mount localhost/pushnode:test)
cp -a "$image_dir/." "$rootfs/"
"${podman[@]}" image unmount localhost/pushnode:test >/dev/null

step "inside: no compiler, -dev package or curl"
packages=$(chroot "$rootfs" dpkg-query -W -f '${Package}\n')
bad=$(grep -E -- '-dev$|^(gcc|g\+\+|cpp|clang|llvm)(-[0-9.]+)?$|^(binutils|make|swift|curl|wget)' <<<"$packages" || true)
[ -z "$bad" ] || fail "packages that do not belong: $bad"
for tool in cc gcc c++ clang ld swiftc swift curl wget; do
    [ ! -e "$rootfs/usr/bin/$tool" ] || fail "/usr/bin/$tool is in the image"
done
! chroot "$rootfs" ldd /usr/lib/pushnode/pushnode | grep -q "not found" || fail "unresolved libraries"

for dir in proc dev; do mount --bind "/$dir" "$rootfs/$dir"; mounted=("$rootfs/$dir" "${mounted[@]}"); done
uid=$(awk -F: '$1 == "pushnode" { print $3 ":" $4 }' "$rootfs/etc/passwd")
# The image's process: its environment, entrypoint and command, as its user, in its own network.
python3 - "$env_json" "$entry" "$cmd" "$health" > "$work/argv" <<'EOF'
import json, shlex, sys
env, entry, cmd, health = (json.loads(a) for a in sys.argv[1:])
print("IMAGE_ENV=(" + " ".join(shlex.quote(e) for e in env) + ")")
print("IMAGE_ARGV=(" + " ".join(shlex.quote(a) for a in entry + cmd) + ")")
assert health[0] == "CMD", health
print("HEALTH_ARGV=(" + " ".join(shlex.quote(a) for a in health[1:]) + ")")
EOF
cat >> "$work/argv" <<EOF
rootfs=$rootfs uid=$uid work=$work
EOF
unshare --net bash -c '
set -euo pipefail
source "$1"
fail() { echo "image-test: FAILED: $*" >&2; exit 1; }
ip link set lo up
in_image() { chroot --userspec="$uid" "$rootfs" /usr/bin/env -i HOME=/var/lib/pushnode "${IMAGE_ENV[@]}" "$@"; }
get() { python3 -c "import sys, urllib.request as u
try: r = u.urlopen(sys.argv[1], timeout=5); print(r.status, r.read().decode()[:200].replace(chr(10), \" \"))
except u.HTTPError as e: print(e.code)
except OSError as e: print(0, e)" "$1"; }
# exec all the way (subshell → chroot → env → pushnode): $! is the node, as PID 1 would be.
(exec chroot --userspec="$uid" "$rootfs" /usr/bin/env -i HOME=/var/lib/pushnode "${IMAGE_ENV[@]}" \
    "${IMAGE_ARGV[@]}" 2>"$work/node.log") &
node=$!
for _ in $(seq 300); do
    [ "$(get http://127.0.0.1:8765/readyz | cut -d" " -f1)" = 200 ] && break
    kill -0 $node 2>/dev/null || { cat "$work/node.log"; fail "the node exited at start"; }
    sleep 0.1
done
readyz=$(get http://127.0.0.1:8765/readyz)
echo "image-test: /readyz on :8765: $readyz"
[[ $readyz == "200 "*ready* ]] || { cat "$work/node.log"; fail "/readyz"; }
[ "$(get http://127.0.0.1:9765/metrics | cut -d" " -f1)" = 200 ] || fail "/metrics on the admin listener"
[ "$(get http://127.0.0.1:8765/metrics | cut -d" " -f1)" = 404 ] || fail "/metrics on the public listener"
in_image "${HEALTH_ARGV[@]}" >/dev/null || fail "the HEALTHCHECK command failed on a running node"
echo "image-test: HEALTHCHECK passes on the running node"
ls "$rootfs/var/lib/pushnode" | grep -q . || fail "nothing written to the volume"
others=$(find "$rootfs/var/lib/pushnode" ! -uid "${uid%%:*}")
[ -z "$others" ] || fail "state not owned by the image user: $others"
echo "image-test: state in the volume: $(ls "$rootfs/var/lib/pushnode" | tr "\n" " ")"
kill -TERM $node
code=0; wait $node || code=$?
[ $code = 0 ] || { cat "$work/node.log"; fail "SIGTERM: exit $code"; }
echo "image-test: SIGTERM drained, exit 0"
! in_image "${HEALTH_ARGV[@]}" >/dev/null 2>&1 || fail "the HEALTHCHECK command passed with no node"
echo "image-test: HEALTHCHECK fails once the node is gone"
' image-test "$work/argv"

step "compose.yaml: the node on PostgreSQL, the pair profile, admin listeners on the host's loopback"
python3 - <<'PY'
import yaml
services = yaml.safe_load(open("compose.yaml"))["services"]
nodes = {name: s for name, s in services.items() if s.get("image") == "pushnode:latest"}
assert sorted(nodes) == ["node", "node-2"] and services["postgres"]["image"].startswith("postgres:"), services
assert "profiles" not in nodes["node"] and nodes["node-2"]["profiles"] == ["pair"]
for name, node in nodes.items():
    assert node["build"] == "." and node["environment"]["PUSHNODE_STORAGE_DRIVER"] == "postgres", name
    assert node["depends_on"]["postgres"]["condition"] == "service_healthy", name
    assert any(v.endswith(":/var/lib/pushnode") for v in node["volumes"]), name
    admin = [p for p in node["ports"] if p.endswith(":9765")]
    assert admin and all(p.startswith("127.0.0.1:") for p in admin), (name, node["ports"])
PY

"${podman[@]}" image prune --force >/dev/null
size=$(inspect '{{.Size}}')
echo "image-test: image size $((size / 1000 / 1000)) MB ($size bytes; root filesystem $(du -shx "$rootfs" | cut -f1))"
echo "image-test: passed in $(( $(date +%s) - started )) s"
