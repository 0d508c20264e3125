# The service desk as one image: the server and the two built browser apps, run as a user without
# rights, with its data folder (DATA_DIR) on a volume. Build: `docker build -t service-desk .`
# (docs/container.md). BASE is any Debian-based image with Node >= 20.19 and npm on the PATH; the
# test (tests/container/image.test.ts) passes one made from Debian's own packages, because it runs
# where no public image registry can be reached.
ARG BASE=node:20-bookworm-slim

# Every dependency, dev tools included (Vite builds the apps). Only package*.json are copied first, so
# this layer, the slow one, is reused until the lock file changes.
FROM ${BASE} AS deps
# A compiler for argon2 (password hashing): its install step loads the prebuilt binary shipped in the
# npm package and compiles its own where that fails, and on some machines (the test machines of this
# project among them) the prebuilt one crashes on load. Only in the build stages: the runtime image
# gets the compiled module from them.
RUN apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --loglevel=error

# The browser apps, built into dist/.
FROM deps AS build
COPY . .
RUN npm run build

# The runtime's dependencies: the same tree less the dev tools (tsx, which runs the server, is a
# runtime dependency). Pruned from the deps stage, so it is cached with it and downloads nothing.
FROM deps AS prod-deps
RUN npm prune --omit=dev --no-audit --no-fund --loglevel=error

FROM ${BASE} AS runtime
# A system user of its own: nothing in the container runs as root, and it owns only /data.
RUN groupadd --system --gid 10001 desk \
  && useradd --system --uid 10001 --gid desk --home-dir /app --no-create-home --shell /usr/sbin/nologin desk \
  && mkdir -p /data && chown desk:desk /data
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
# Copied by a RUN keyed on the lock file rather than by `COPY --from`, whose cache check reads all of
# node_modules (a minute on two cores) on every build: the pruned tree follows from the lock file.
COPY package.json package-lock.json ./
RUN --mount=type=bind,from=prod-deps,source=/app/node_modules,target=/mnt/node_modules \
  cp -a /mnt/node_modules ./node_modules
COPY tsconfig.base.json tsconfig.server.json ./
COPY schemas ./schemas
COPY common ./common
COPY server ./server
COPY --from=build /app/dist ./dist
USER desk
VOLUME ["/data"]
EXPOSE 3000
# Ready means the database answers and its migrations are done (server/system/health.ts). Node's own
# fetch: the slim image has no curl.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/health/ready`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Straight to the server, not `npm start`: its build step needs Vite (a dev tool), and npm would stand
# between the server and the SIGTERM of `docker stop`, which starts its graceful shutdown.
CMD ["node", "--import", "tsx", "server/server.ts"]
