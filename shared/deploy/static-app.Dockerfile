# Every static app (the shell and each remote): its production build served by nginx (Debian's,
# with brotli) as an unprivileged user. Build from the repo root, naming the app:
#   docker build -f shared/deploy/static-app.Dockerfile --build-arg APP_FOLDER=mfe-blog --build-arg RELEASE_APP=blog .
# Configuration at start: see shared/deploy/static-app-entrypoint.sh and docs/operations.md, "Containers".

FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json ./
COPY shared/package.json shared/
# Declared after the steps every app shares, so their cache is one for all apps.
# APP_FOLDER: the app's folder in the repo (shell, mfe-blog…); RELEASE_APP: the app as the release
# API names it (the federation registry's name: shell, blog…).
ARG APP_FOLDER
ARG RELEASE_APP
RUN test -n "${APP_FOLDER}" && test -n "${RELEASE_APP}" \
  || { echo 'Name the app: --build-arg APP_FOLDER=<its folder> --build-arg RELEASE_APP=<its release name>' >&2; exit 1; }
COPY ${APP_FOLDER}/package.json ${APP_FOLDER}/
# Only this app's and the build's packages; nothing here needs an install script.
RUN npm ci --workspace=${APP_FOLDER} --workspace=shared --include-workspace-root --ignore-scripts --no-audit --no-fund
COPY shared shared
COPY ${APP_FOLDER} ${APP_FOLDER}
# What the image adds for this app, in one folder so that it is one layer there: the build, and the
# nginx server block: the app's own (deploy/nginx-site.conf.template: the shell's), else the one the
# remotes share.
RUN npm run build -w ${APP_FOLDER} \
  && mkdir -p /image/srv /image/etc/agency-nginx \
  && mv ${APP_FOLDER}/dist /image/srv/app \
  && own=${APP_FOLDER}/deploy/nginx-site.conf.template \
  && cp "$( [ -f "$own" ] && echo "$own" || echo shared/deploy/nginx/remote-site.conf.template )" /image/etc/agency-nginx/site.conf.template

FROM debian:bookworm-slim
RUN apt-get update \
  # curl (and its CA certificates): the entrypoint publishes the build through the release API.
  && apt-get install -y --no-install-recommends nginx libnginx-mod-http-brotli-static gettext-base curl ca-certificates \
  && rm -rf /var/lib/apt/lists/* \
  && useradd --uid 1000 --no-create-home --shell /usr/sbin/nologin site
COPY shared/deploy/nginx/common/ /etc/agency-nginx/
COPY shared/deploy/static-app-entrypoint.sh /usr/local/bin/static-app-entrypoint
# Declared after the layers every app shares (Debian's packages above all), for the same reason.
ARG APP_FOLDER
ARG RELEASE_APP
COPY --from=build /image/ /
ENV APP_FOLDER=${APP_FOLDER} RELEASE_APP=${RELEASE_APP} APP_ROOT=/srv/app LISTEN_PORT=8080
USER site
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --retries=3 CMD ["static-app-entrypoint", "health"]
ENTRYPOINT ["static-app-entrypoint"]
