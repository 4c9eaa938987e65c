# The swarm's image registry: Debian's docker-registry (the Distribution project's registry). Debian's
# configuration asks for passwords; this one is reached only on the test's own network, so it asks
# for none. Its storage is a volume the suite keeps between runs (e2e/support/swarm-cluster.ts).
FROM debian:bookworm-slim
RUN apt-get update \
  && apt-get install -y --no-install-recommends docker-registry \
  && rm -rf /var/lib/apt/lists/* \
  && printf '%s\n' 'version: 0.1' 'storage:' '  filesystem:' '    rootdirectory: /var/lib/docker-registry' \
    'http:' '  addr: :5000' > /etc/docker/registry/config.yml
EXPOSE 5000
ENTRYPOINT ["docker-registry", "serve", "/etc/docker/registry/config.yml"]
