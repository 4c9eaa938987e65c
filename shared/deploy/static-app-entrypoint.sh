#!/bin/sh
# Starts the nginx of one static app (the shell or a remote), in its container or on a test machine:
#   1. renders the nginx configuration in NGINX_CONF_DIR from the environment (envsubst);
#   2. with RELEASE_API set, publishes the app's build through the site's release API (in the
#      background, so nginx serves meanwhile), as RELEASE_APP with RELEASE_TOKEN, by RELEASE_POLICY;
#   3. runs nginx in the foreground.
set -eu

: "${NGINX_RUN_DIR:=/tmp/nginx}"
# What became of the publication: `published` (or the build was released already), `refused`.
PUBLISH_STATE="$NGINX_RUN_DIR/release-state"

# `static-app-entrypoint health`: the container's health check: nginx answers its /healthz and,
# with RELEASE_API set, the build was published (a refused build leaves the container unhealthy,
# so `docker compose up --wait` and an orchestrator's rolling update see it).
if [ "${1:-}" = health ]; then
  if [ -n "${RELEASE_API:-}" ] && [ "$(cat "$PUBLISH_STATE" 2>/dev/null)" != published ]; then exit 1; fi
  exec bash -c 'exec 3<>"/dev/tcp/127.0.0.1/${LISTEN_PORT:-8080}" && printf "GET /healthz HTTP/1.0\r\n\r\n" >&3 && head -n 1 <&3 | grep -q " 204 "'
fi

: "${APP_FOLDER:?APP_FOLDER must name the app (its folder in the repo, e.g. mfe-blog)}"
: "${APP_ROOT:=/srv/app}"
: "${LISTEN_PORT:=8080}"
: "${NGINX_CONF_DIR:=/etc/agency-nginx}"
# The shell's API upstream: `host:port` entries separated by spaces. A name stands for every
# address it resolves to: `api:8080` is every replica compose runs, `tasks.api:8080` every task of a
# Swarm service. nginx resolves names only when it starts, so this script resolves them itself and,
# every API_RESOLVE_INTERVAL seconds, again: when the addresses change (a replica replaced, moved to
# another machine, scaled), the configuration is rendered again and nginx reloaded, gracefully.
: "${API_RESOLVE_INTERVAL:=1}"
# Sets RESOLVED to each entry's addresses (IPv4) as `address:port` words, without repeats, in the
# order DNS gave them (Docker's DNS shuffles a service's tasks); empty while a name has none. It runs
# every second on every machine, so it starts one process (getent) per entry and nothing else.
resolve_upstreams() {
  RESOLVED=""
  for server in ${API_UPSTREAMS:-}; do
    answer=$(getent ahostsv4 "${server%:*}") || continue
    # getent's lines are `address STREAM name`, `address DGRAM`, `address RAW`: the addresses are
    # the words made of digits and dots only.
    for word in $answer; do
      case "$word" in
        *[!0-9.]*) ;;
        *) case " $RESOLVED " in *" $word:${server##*:} "*) ;; *) RESOLVED="${RESOLVED:+$RESOLVED }$word:${server##*:}" ;; esac ;;
      esac
    done
  done
}
# Whether two lists of words without repeats hold the same words, in whatever order.
same_words() {
  for word in $1; do case " $2 " in *" $word "*) ;; *) return 1 ;; esac; done
  for word in $2; do case " $1 " in *" $word "*) ;; *) return 1 ;; esac; done
}
# - One failure takes a process out for 5 s (then one request tries it again): a crashed one
#   costs one request's timeout, not one per request.
# - The same processes again as backups that are never taken out: when every process failed at
#   once because of something they share (the database down: each answers 503), nginx would
#   answer every request 502 "no live upstreams" for those 5 s; with the backups they keep being
#   asked, and answer what they can (published content from their cache, 503 with Retry-After).
upstream_servers() {
  main="" backup=""
  for server in $1; do
    main="${main}server ${server} max_fails=1 fail_timeout=5s; "
    backup="${backup}server ${server} backup max_fails=0; "
  done
  printf '%s%s' "$main" "$backup"
}
API_ADDRESSES=""
if [ -n "${API_UPSTREAMS:-}" ]; then
  # On Swarm the shell may start before any API task is up: a name with no address yet is waited for.
  waited=0
  until resolve_upstreams && [ -n "$RESOLVED" ]; do
    [ $((waited % 10)) -eq 0 ] && echo "waiting for the API's addresses (${API_UPSTREAMS}) to resolve" >&2
    waited=$((waited + 1))
    sleep 1
  done
  API_ADDRESSES=$RESOLVED
fi
API_UPSTREAM_SERVERS=$(upstream_servers "$API_ADDRESSES")
# How many times nginx tries a request: once on each API process. Not 0 (no limit): the backups
# would be tried too, and with every process failing nginx would answer 502 "no live upstreams"
# instead of passing on the last process's answer (a 503 with its Retry-After).
api_tries() { printf '%s\n' $1 | grep -c . || true; }
API_UPSTREAM_TRIES=$(api_tries "$API_ADDRESSES")
SHELL_ORIGIN="${SHELL_ORIGIN:-}"
export APP_ROOT LISTEN_PORT NGINX_CONF_DIR NGINX_RUN_DIR API_UPSTREAM_SERVERS API_UPSTREAM_TRIES SHELL_ORIGIN

# Every variable a template uses must have a value: an empty CORS origin or upstream would start a
# server that silently fails the browser.
VARIABLES="APP_ROOT LISTEN_PORT NGINX_CONF_DIR NGINX_RUN_DIR API_UPSTREAM_SERVERS API_UPSTREAM_TRIES SHELL_ORIGIN"
for name in $VARIABLES; do
  if cat "$NGINX_CONF_DIR"/* | grep -qF "\${$name}"; then
    eval "value=\${$name}"
    if [ -z "$value" ]; then
      case "$name" in
        API_UPSTREAM_SERVERS) echo "API_UPSTREAMS must list the API processes (host:port ...)" >&2 ;;
        *) echo "$name must be set for the nginx of $APP_FOLDER" >&2 ;;
      esac
      exit 1
    fi
  fi
done

# RELEASE_API: the site's API as this container reaches it (compose: http://api:8080). The build is
# uploaded as a .tar.gz of APP_ROOT with `unlessKept=true`, so a container started again with a
# build some kept release holds publishes nothing new. RELEASE_POLICY: `current` (the default:
# published and made current), `stage` (a preview link, in the log) or `canary:<percent>`.
# Connection errors, 5xx and a concurrent change (another app's release landed meanwhile) are
# tried again; any other refusal (the compatibility gate, a bad token) is logged and final.
release_query=""
if [ -n "${RELEASE_API:-}" ]; then
  # RELEASE_TOKEN_FILE: the token in a file (a Docker secret), never in the container's environment.
  if [ -n "${RELEASE_TOKEN_FILE:-}" ]; then
    [ -z "${RELEASE_TOKEN:-}" ] || { echo "RELEASE_TOKEN and RELEASE_TOKEN_FILE are both set: set one of them" >&2; exit 1; }
    RELEASE_TOKEN=$(cat "$RELEASE_TOKEN_FILE") || { echo "RELEASE_TOKEN_FILE names a file that cannot be read: $RELEASE_TOKEN_FILE" >&2; exit 1; }
  fi
  : "${RELEASE_APP:?RELEASE_APP must name the app in the release API (shell, home, blog, forms)}"
  : "${RELEASE_TOKEN:?RELEASE_TOKEN must be a release token for $RELEASE_APP}"
  case "${RELEASE_POLICY:-current}" in
    current) release_query="action=publish" ;;
    stage) release_query="action=stage" ;;
    canary:[0-9]*) release_query="action=canary&share=${RELEASE_POLICY#canary:}" ;;
    *) echo "RELEASE_POLICY must be current, stage or canary:<percent>, got \"${RELEASE_POLICY}\"" >&2; exit 1 ;;
  esac
fi

publish_build() {
  url="${RELEASE_API%/}/api/releases/$RELEASE_APP/builds?$release_query&unlessKept=true"
  archive="$NGINX_RUN_DIR/release.tar.gz"
  answer="$NGINX_RUN_DIR/release-answer.json"
  tar -czf "$archive" -C "$APP_ROOT" .
  delay=1
  while :; do
    status=$(curl --silent --show-error --output "$answer" --write-out '%{http_code}' --max-time 300 \
      --request POST --header "authorization: Bearer $RELEASE_TOKEN" --header 'content-type: application/gzip' \
      --data-binary "@$archive" "$url") || status=000
    case "$status" in
      2??)
        echo "release of $RELEASE_APP (${RELEASE_POLICY:-current}): $(cat "$answer")" >&2
        echo published > "$PUBLISH_STATE"
        break ;;
      000 | 5?? | 409)
        if [ "$status" = 409 ] && ! grep -q '"CONCURRENT_CHANGE"' "$answer"; then
          echo "release of $RELEASE_APP refused ($status): $(cat "$answer")" >&2
          echo refused > "$PUBLISH_STATE"
          break
        fi
        echo "release of $RELEASE_APP: the release API answered ${status} (000: no answer), trying again in ${delay} s" >&2
        sleep "$delay"
        delay=$((delay < 8 ? delay * 2 : 10)) ;;
      *)
        echo "release of $RELEASE_APP refused ($status): $(cat "$answer" 2>/dev/null)" >&2
        echo refused > "$PUBLISH_STATE"
        break ;;
    esac
  done
  rm -f "$archive" "$answer"
}

mkdir -p "$NGINX_RUN_DIR"
rm -f "$PUBLISH_STATE"
envsubst_list=$(for name in $VARIABLES; do printf '${%s} ' "$name"; done)
render_configuration() {
  for file in "$NGINX_CONF_DIR"/*; do
    envsubst "$envsubst_list" < "$file" > "$NGINX_RUN_DIR/$(basename "$file" .template)"
  done
}
render_configuration

# NGINX_EXTRA_GLOBALS: main-context directives for this machine, e.g. `user root;` when nginx runs
# as root outside a container.
NGINX_GLOBALS="daemon off;${NGINX_EXTRA_GLOBALS:-}"

watch_upstreams() {
  while sleep "$API_RESOLVE_INTERVAL"; do
    resolve_upstreams
    # No address at all (every task gone for a moment): the last ones are kept, and retried.
    [ -n "$RESOLVED" ] && ! same_words "$RESOLVED" "$API_ADDRESSES" || continue
    echo "the API's addresses changed to: $RESOLVED" >&2
    API_ADDRESSES=$RESOLVED
    API_UPSTREAM_SERVERS=$(upstream_servers "$API_ADDRESSES")
    API_UPSTREAM_TRIES=$(api_tries "$API_ADDRESSES")
    export API_UPSTREAM_SERVERS API_UPSTREAM_TRIES
    render_configuration
    nginx -e stderr -c "$NGINX_RUN_DIR/nginx.conf" -g "$NGINX_GLOBALS" -s reload
  done
}

# Both run meanwhile: the processes stay children of nginx, which reaps them when they end.
if [ -n "$release_query" ]; then publish_build & fi
# Only names can change their addresses.
if printf '%s\n' ${API_UPSTREAMS:-} | grep -qvE '^[0-9.]+:[0-9]+$'; then watch_upstreams & fi

exec nginx -e stderr -c "$NGINX_RUN_DIR/nginx.conf" -g "$NGINX_GLOBALS"
