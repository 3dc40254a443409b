# One image for every hookline process; docker-compose.yml picks the entry point per service.
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN corepack enable
COPY . .
# Built with every dependency, then installed again with the production ones only (see the script).
RUN pnpm install --frozen-lockfile && pnpm build && scripts/install-production.sh

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app /app
USER node
CMD ["node", "apps/hookline/dist/http-main.js"]
