#!/bin/bash
# Lays out the container image's own files under ROOT from a release binary (the Dockerfile's build
# stage runs it, and so does the image test, Tests/Container/image-test.sh):
#   contrib/container/stage-image.sh BINARY ROOT
# /usr/lib/pushnode: the binary with its Swift runtime (contrib/bundle-runtime.sh); /usr/bin/pushnode
# → it; /etc/pushnode/config.yaml: config.yaml.example listening on every address of the container
# (the API, and the admin listener for a scraper on the container network: publish it on the host's
# loopback only) with its state in /var/lib/pushnode, the image's volume.
set -euo pipefail
binary=$1 root=$2
root_dir=$(cd "$(dirname "$0")/../.." && pwd)
"$root_dir/contrib/bundle-runtime.sh" "$binary" "$root/usr/lib/pushnode"
install -d "$root/usr/bin" "$root/etc/pushnode"
ln -sf ../lib/pushnode/pushnode "$root/usr/bin/pushnode"
sed -e 's|^listen: .*|listen: 0.0.0.0:8765|' -e 's|^adminListen: .*|adminListen: 0.0.0.0:9765|' \
    -e 's|^dataDir: .*|dataDir: /var/lib/pushnode|' "$root_dir/config.yaml.example" > "$root/etc/pushnode/config.yaml"
for key in 'listen: 0.0.0.0:8765' 'adminListen: 0.0.0.0:9765' 'dataDir: /var/lib/pushnode'; do
    grep -qx "$key" "$root/etc/pushnode/config.yaml" || { echo "stage-image: config.yaml.example has no line for ${key%%:*}" >&2; exit 1; }
done
chmod 644 "$root/etc/pushnode/config.yaml"
