# novu-mock: an offline simulator of the Novu API.
#
#   docker build -t novu-mock .
#   docker run --rm -p 4000:4000 novu-mock
#   docker run --rm -p 4000:4000 -e SCENARIO=my-scenario -v "$PWD/my-scenarios:/scenarios:ro" novu-mock
#   (the README's Docker section shows how to make my-scenarios/; `-p HOST:CONTAINER` must name
#   the port the mock listens on inside, $PORT, 4000 unless set)
#
# Two stages (STYLE.md §11): the builder compiles TypeScript, the runtime stage holds only
# dist/, scenarios/, fixtures/ and the production dependencies. No architecture-specific
# steps, so `docker buildx build --platform linux/amd64,linux/arm64 .` works as is.

# ---------------------------------------------------------------- builder
FROM node:20-bookworm-slim AS build
ENV NPM_CONFIG_UPDATE_NOTIFIER=false NPM_CONFIG_FUND=false NPM_CONFIG_AUDIT=false
WORKDIR /app
# Dependencies first: this layer is reused until package*.json change.
# --ignore-scripts: no dependency's install script runs in the image.
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
RUN npm run build

# ---------------------------------------------------------------- runtime
FROM node:20-bookworm-slim
LABEL org.opencontainers.image.title="novu-mock" \
      org.opencontainers.image.description="Offline, deterministic simulator of the Novu notification API" \
      org.opencontainers.image.licenses="MIT"
WORKDIR /app
# Production dependencies only, installed as root so the app cannot modify its own code.
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund --no-update-notifier \
 && rm -rf /root/.npm \
 && mkdir -p /scenarios \
 && chown node:node /scenarios
COPY LICENSE ./
COPY scenarios ./scenarios
COPY fixtures ./fixtures
COPY --from=build /app/dist ./dist
# V8's code cache of the CLI (README "CLI options"), written by one start and its first answer,
# as root: the image's user node reads it (root's files are trusted) and cannot change it. Node
# and its flags are the ones the container runs with; each start then compiles a fifth less.
RUN node dist/novu-mock.mjs --port 4999 --log-level silent & pid=$!; ok=1; \
    for i in $(seq 150); do \
      if node -e "fetch('http://127.0.0.1:4999/v1/topics',{headers:{Authorization:'ApiKey image-build'}}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"; \
      then ok=0; break; fi; sleep 0.2; \
    done; \
    kill -TERM $pid; wait $pid; \
    test $ok = 0 && ls node_modules/.cache/novu-mock/novu-mock.cjs-*.bin

# Configured through the environment (the CLI reads PORT, HOST, SEED, SCENARIO, SCENARIOS_DIR).
# HOST must be 0.0.0.0 in a container: the CLI's default, 127.0.0.1, is unreachable from outside.
# SCENARIOS_DIR adds the mounted folder on top of the built-in scenarios; it may stay empty, and
# each .json, .yaml or .yml file in it must be a valid scenario (a bad one stops the start, exit 2).
# No VOLUME instruction: it would leave an anonymous volume behind every `docker run`.
# MALLOC_ARENA_MAX: glibc gives each thread that allocates an arena of its own, and what V8's
# background threads (compiles, collections) leave touched in them stays resident: two arenas
# keep 2 to 4 MB less under load, writes no slower (docs/benchmarks.md, eighth session).
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4000 \
    SCENARIOS_DIR=/scenarios \
    MALLOC_ARENA_MAX=2
EXPOSE 4000

USER node

# Follows $PORT (docker run -e PORT=5000 keeps the check working) and needs no curl.
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||4000)+'/__admin/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]

# Node is PID 1 (no shell, no init): the CLI (dist/novu-mock.mjs, running the bundle dist/novu-mock.cjs) handles SIGTERM itself, finishes in-flight
# requests and exits 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "dist/novu-mock.mjs"]
