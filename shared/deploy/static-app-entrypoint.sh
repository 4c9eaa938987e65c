#!/bin/sh
# Starts the nginx of one static app (the shell or a remote), in its container or on a test machine:
#   1. leaves a copy of the app's build in BUILDS_DIR, if set, for the API to render pages with;
#   2. renders the nginx configuration in NGINX_CONF_DIR from the environment (envsubst);
#   3. runs nginx in the foreground.
set -eu

# `static-app-entrypoint health`: the container's health check (nginx answers its /healthz).
if [ "${1:-}" = health ]; then
  exec bash -c 'exec 3<>"/dev/tcp/127.0.0.1/${LISTEN_PORT:-8080}" && printf "GET /healthz HTTP/1.0\r\n\r\n" >&3 && head -n 1 <&3 | grep -q " 204 "'
fi

: "${APP_FOLDER:?APP_FOLDER must name the app (its folder in the repo, e.g. mfe-blog)}"
: "${APP_ROOT:=/srv/app}"
: "${LISTEN_PORT:=8080}"
: "${NGINX_CONF_DIR:=/etc/agency-nginx}"
# Rendered configuration, pid and temp files: a folder a non-root user can write.
: "${NGINX_RUN_DIR:=/tmp/nginx}"
# The shell's API upstream: `host:port` entries separated by spaces, one per API process.
# - One failure takes a process out for 5 s (then one request tries it again): a crashed one
#   costs one request's timeout, not one per request.
# - The same processes again as backups that are never taken out: when every process failed at
#   once because of something they share (the database down: each answers 503), nginx would
#   answer every request 502 "no live upstreams" for those 5 s; with the backups they keep being
#   asked, and answer what they can (published content from their cache, 503 with Retry-After).
API_UPSTREAM_SERVERS=""
API_BACKUP_SERVERS=""
for server in ${API_UPSTREAMS:-}; do
  API_UPSTREAM_SERVERS="${API_UPSTREAM_SERVERS}server ${server} max_fails=1 fail_timeout=5s; "
  API_BACKUP_SERVERS="${API_BACKUP_SERVERS}server ${server} backup max_fails=0; "
done
API_UPSTREAM_SERVERS="${API_UPSTREAM_SERVERS}${API_BACKUP_SERVERS}"
SHELL_ORIGIN="${SHELL_ORIGIN:-}"
# Hashed files missing from this build are looked up in the build before it (its copy in
# BUILDS_DIR), so a page opened before a deploy still loads its lazy chunks.
PREVIOUS_BUILD_ROOT="$APP_ROOT"
if [ -n "${BUILDS_DIR:-}" ]; then PREVIOUS_BUILD_ROOT="$BUILDS_DIR/$APP_FOLDER/previous"; fi
export APP_ROOT LISTEN_PORT NGINX_CONF_DIR NGINX_RUN_DIR API_UPSTREAM_SERVERS SHELL_ORIGIN PREVIOUS_BUILD_ROOT

# Every variable a template uses must have a value: an empty CORS origin or upstream would start a
# server that silently fails the browser.
VARIABLES="APP_ROOT LISTEN_PORT NGINX_CONF_DIR NGINX_RUN_DIR API_UPSTREAM_SERVERS SHELL_ORIGIN PREVIOUS_BUILD_ROOT"
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

# The API renders every page on the server from the apps' builds. A new copy is switched in by
# renaming a symlink, so a render never reads half a build; `previous` points at the copy before
# (for renders still reading it and for old chunks, see above), older ones go.
if [ -n "${BUILDS_DIR:-}" ]; then
  target="$BUILDS_DIR/$APP_FOLDER"
  copy="build-$(date -u +%Y%m%dT%H%M%SZ)-$$"
  mkdir -p "$target"
  cp -R "$APP_ROOT" "$target/$copy"
  if [ -L "$target/dist" ]; then
    ln -sfn "$(readlink "$target/dist")" "$target/previous.next"
  else
    ln -sfn "$copy" "$target/previous.next"
  fi
  mv -T "$target/previous.next" "$target/previous"
  ln -sfn "$copy" "$target/dist.next"
  mv -T "$target/dist.next" "$target/dist"
  find "$target" -mindepth 1 -maxdepth 1 -name 'build-*' | sort | head -n -2 | xargs -r rm -rf
fi

mkdir -p "$NGINX_RUN_DIR"
envsubst_list=$(for name in $VARIABLES; do printf '${%s} ' "$name"; done)
for file in "$NGINX_CONF_DIR"/*; do
  envsubst "$envsubst_list" < "$file" > "$NGINX_RUN_DIR/$(basename "$file" .template)"
done

# NGINX_EXTRA_GLOBALS: main-context directives for this machine, e.g. `user root;` when nginx runs
# as root outside a container.
exec nginx -e stderr -c "$NGINX_RUN_DIR/nginx.conf" -g "daemon off;${NGINX_EXTRA_GLOBALS:-}"
