# The game server with its pages for hosts and players and its operator console. docker-compose.yml runs it beside a PostgreSQL container.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY web-admin/package.json web-admin/
RUN npm ci
COPY . .
RUN npm run build

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
COPY web-admin/package.json web-admin/
RUN npm ci --omit=dev && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY --from=build /app/web-admin/dist ./web-admin/dist
COPY --from=build /app/web-admin/dist-pages ./web-admin/dist-pages
EXPOSE 3000
CMD ["node", "dist/apps/game-server/apps/game-server/src/main.js"]
