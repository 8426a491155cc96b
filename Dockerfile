# pushnode's container image: built on the official Swift 6 image for Debian 12, run on
# debian:bookworm-slim with only the runtime libraries.
#   docker build -t pushnode .            (or podman build)
#   docker run -v pushnode-data:/var/lib/pushnode -p 8765:8765 -p 127.0.0.1:9765:9765 pushnode
# Configuration: mount a file over /etc/pushnode/config.yaml, or set PUSHNODE_* variables (they win
# over the file). State (SQLite, VAPID key, node id): the volume /var/lib/pushnode. The node runs as
# PID 1 and drains on SIGTERM (server.shutdownTimeout). `make image-test` checks the runtime stage
# on a machine without a registry (README, "Container").
ARG SWIFT_IMAGE=swift:6.3-bookworm
ARG RUNTIME_IMAGE=debian:bookworm-slim
# The image holding /stage (the binary, its Swift runtime, the config): the build stage by default;
# the image test passes one made from a binary built outside.
ARG STAGE=build

FROM ${SWIFT_IMAGE} AS build
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      libsodium-dev libssl-dev libcurl4-openssl-dev libnghttp2-dev libsqlite3-dev libyaml-dev \
      libmicrohttpd-dev pkg-config libpq-dev patchelf \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN swift build -c release --product pushnode \
 && contrib/container/stage-image.sh .build/release/pushnode /stage

FROM ${STAGE} AS staged

FROM ${RUNTIME_IMAGE} AS runtime
# The libraries the binary links beside the bundled Swift runtime (contrib/debian/control.in's
# Depends), and the CA certificates the providers' TLS needs. No compiler, no -dev package, no curl.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      libsodium23 libssl3 libnghttp2-14 libcurl4 libsqlite3-0 libyaml-0-2 libmicrohttpd12 libpq5 \
      libstdc++6 libgcc-s1 ca-certificates tzdata \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --uid 10001 --user-group --home-dir /var/lib/pushnode --no-create-home \
      --shell /usr/sbin/nologin pushnode \
 && install -d -o pushnode -g pushnode -m 0700 /var/lib/pushnode
COPY --from=staged /stage/ /
USER pushnode
WORKDIR /var/lib/pushnode
VOLUME /var/lib/pushnode
EXPOSE 8765 9765
# `pushnode status` asks the admin listener (adminListen of the config, PUSHNODE_ADMIN_LISTEN
# winning) for /status.json: exit 0 only on a 200. No curl needed.
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 \
  CMD ["/usr/bin/pushnode", "status", "--config", "/etc/pushnode/config.yaml"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/pushnode"]
CMD ["serve", "--config", "/etc/pushnode/config.yaml"]
