# One image with the API and every built app (all-in-one mode). Remotes can also be built and
# hosted separately: point REMOTE_*_URL at their manifests.
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY . .
RUN npm ci --no-audit --no-fund && npm run build
# The blog's articles (content/blog: Markdown and covers) ship in the image: the server publishes
# them into the database at start. Fail the build if the folder went missing (a .dockerignore rule).
RUN ls content/blog/*.md > /dev/null

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production PORT=8080
COPY --from=build /app /app
# Covers prepared by that sync go to MEDIA_DIR (default data/media, inside the container); give
# several containers one shared volume there, as docker-compose.yml does.
EXPOSE 8080
CMD ["node", "api/dist/server.js"]
