# One machine of the test swarm: Debian's Docker engine (Swarm mode built in) in a container.
# Run without --privileged (this kernel refuses it): see e2e/support/swarm-cluster.ts for the flags.
FROM debian:bookworm-slim
RUN apt-get update \
  && apt-get install -y --no-install-recommends docker.io iptables ca-certificates \
  && rm -rf /var/lib/apt/lists/*
VOLUME /var/lib/docker
ENTRYPOINT ["dockerd"]
