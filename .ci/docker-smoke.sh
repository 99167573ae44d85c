#!/usr/bin/env bash
# Builds the Docker image with rootful Podman (shared/tools/docker-local.sh, no Docker engine
# needed), starts it, sends real Novu and admin requests, stops it with SIGTERM and requires
# exit code 0. Run as root from anywhere; safe to re-run (the tag is rebuilt, the container
# is always removed).
#
# Every wait is bounded (BUILD_TIMEOUT, HEALTH_TIMEOUT, STOP_TIMEOUT, curl -m) and a timeout fails
# with a message naming the step; no check pipes a command into `grep -q` (see the banner check).
#
# Environment: IMAGE=novu-mock:ci  HOST_PORT=14000  BUILD_TIMEOUT=900
#              DOCKER_LOCAL=<path to docker-local.sh, default ../shared/tools/docker-local.sh
#                            beside the checkout>
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DOCKER_LOCAL=${DOCKER_LOCAL:-$ROOT/../shared/tools/docker-local.sh}
IMAGE=${IMAGE:-novu-mock:ci}
HOST_PORT=${HOST_PORT:-14000}
BASE="http://127.0.0.1:$HOST_PORT"
AUTH="Authorization: ApiKey docker-smoke"

export HEALTH_PATH=/__admin/health
export HEALTH_TIMEOUT=${HEALTH_TIMEOUT:-60}
export STOP_TIMEOUT=${STOP_TIMEOUT:-10}
BUILD_TIMEOUT=${BUILD_TIMEOUT:-900}
# docker-local.sh bounds its own waits by these; the margins cover podman's own calls around them.
START_LIMIT=$((HEALTH_TIMEOUT + 60))
STOP_LIMIT=$((STOP_TIMEOUT + 60))

log() { printf '[docker-smoke] %s\n' "$*" >&2; }
die() { printf '[docker-smoke] FAILED: %s\n' "$*" >&2; exit 1; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
# bounded SECONDS WHAT CMD...: runs CMD, killed after SECONDS (SIGTERM, then SIGKILL 5 s later);
# a timeout fails the run with a message naming WHAT and the limit, any other status is returned.
bounded() {
  local limit=$1 what=$2 rc=0
  shift 2
  timeout -k 5 "$limit" "$@" || rc=$?
  if ((rc == 124 || rc == 137)); then die "$what did not finish within ${limit}s"; fi
  return "$rc"
}

[ -f "$DOCKER_LOCAL" ] || die "docker-local.sh not found at $DOCKER_LOCAL (set DOCKER_LOCAL)"
[ "$(id -u)" = 0 ] || die "run as root (docker-local.sh uses rootful Podman)"
cd "$ROOT"

# Every container this script starts carries this label, its value this run's id: a failed or
# interrupted run (including one whose `podman run` failed half way) is cleaned up on exit, and
# its stopped leftovers on the next run; a smoke run going on at the same time is left alone.
LABEL_KEY=io.novu-mock.docker-smoke
LABEL="$LABEL_KEY=$$-$(date +%s)"
BASE_RUN_ARGS="--label $LABEL ${RUN_ARGS:-}"
export RUN_ARGS="$BASE_RUN_ARGS"

remove_ours() {
  command -v podman >/dev/null || return 0
  local ids
  ids=$(podman ps -aq --filter "label=$LABEL" 2>/dev/null) || return 0
  [ -n "$ids" ] || return 0
  log "removing containers of this smoke run: ${ids//$'\n'/ }"
  # shellcheck disable=SC2086
  podman rm -f -t 2 $ids >/dev/null 2>&1 || true
}

remove_leftovers() {
  command -v podman >/dev/null || return 0
  local ids
  ids=$(podman ps -aq --filter "label=$LABEL_KEY" --filter status=exited --filter status=created 2>/dev/null) || return 0
  [ -n "$ids" ] || return 0
  log "removing stopped containers of earlier smoke runs: ${ids//$'\n'/ }"
  # shellcheck disable=SC2086
  podman rm -f $ids >/dev/null 2>&1 || true
}

# Scratch files (scenario folders mounted into containers), readable by the image's user node.
WORK=$(mktemp -d)
chmod 755 "$WORK"

CID=""
cleanup() {
  local rc=$?
  if ((rc != 0)); then
    if [ -n "$CID" ]; then
      log "logs of ${CID:0:12}:"
      timeout -k 5 30 podman logs --tail 50 "$CID" >&2 2>&1 || true
    fi
    remove_ours
  fi
  rm -rf "$WORK"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

remove_leftovers
if (exec 3<>"/dev/tcp/127.0.0.1/$HOST_PORT") 2>/dev/null; then
  die "port $HOST_PORT is already in use on 127.0.0.1 (set HOST_PORT to a free port)"
fi

# request METHOD PATH EXPECTED_STATUS [JSON_BODY]: prints the response body, fails on any
# other status (curl -f alone would accept 200 where 201 is required).
request() {
  local method=$1 path=$2 want=$3 body=${4:-} out code
  out=$(mktemp)
  local args=(-sS -m 10 -o "$out" -w '%{http_code}' -X "$method" -H "$AUTH")
  [ -n "$body" ] && args+=(-H 'Content-Type: application/json' --data "$body")
  code=$(curl "${args[@]}" "$BASE$path") || { rm -f "$out"; die "$method $path: curl failed"; }
  if [ "$code" != "$want" ]; then
    log "$method $path -> HTTP $code, body:"; head -c 2000 "$out" >&2; echo >&2
    rm -f "$out"; die "$method $path: expected HTTP $want, got $code"
  fi
  log "$method $path -> HTTP $code"
  cat "$out"; rm -f "$out"
}

T_ALL=$(now)

# ---- build
t=$(now)
log "building $IMAGE with $DOCKER_LOCAL"
bounded "$BUILD_TIMEOUT" "building $IMAGE" bash "$DOCKER_LOCAL" build "$IMAGE" >/dev/null
BUILD_S=$(secs "$t")
SIZE_B=$(podman image inspect --format '{{.Size}}' "$IMAGE")
SIZE_MB=$(awk -v b="$SIZE_B" 'BEGIN { printf "%.1f", b / 1000000 }')
BASE_B=$(podman image inspect --format '{{.Size}}' node:20-bookworm-slim 2>/dev/null || echo 0)
APP_MB=$(awk -v a="$SIZE_B" -v b="$BASE_B" 'BEGIN { printf "%.1f", (a - b) / 1000000 }')
log "built $IMAGE in ${BUILD_S}s, size ${SIZE_MB} MB ($SIZE_B bytes; ${APP_MB} MB over the base image)"

# ---- start (waits for the image's HEALTHCHECK and GET /__admin/health)
t=$(now)
CID=$(bounded "$START_LIMIT" "starting $IMAGE" bash "$DOCKER_LOCAL" start "$IMAGE" "$HOST_PORT")
START_S=$(secs "$t")
log "container ${CID:0:12} healthy in ${START_S}s"
log "$(bounded 30 "podman inspect" podman inspect --format 'user={{.Config.User}} health={{.State.Health.Status}}' "$CID")"

# ---- requests
# json_get EXPR: evaluates a JS expression on the JSON read from stdin (as `j`), prints it.
json_get() {
  node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const j=JSON.parse(s);const v=('"$1"');if(v===undefined||v===null)process.exit(1);process.stdout.write(String(v))})'
}
t=$(now)
body=$(request GET /__admin/health 200)
[ "$(json_get j.status <<<"$body")" = ok ] || die "GET /__admin/health: status is not ok: $body"
body=$(request GET /v1/topics 200)
json_get 'Array.isArray(j.data)||undefined' <<<"$body" >/dev/null || die "GET /v1/topics: no data array: $body"
body=$(request POST /v1/workflows 201 \
  '{"name":"Docker","notificationGroupId":"66fbb0a0c1f2e3d4a5b60001","steps":[]}')
WF_ID=$(json_get j.data._id <<<"$body") || die "POST /v1/workflows: no data._id: $body"
log "workflow id $WF_ID"
body=$(request PUT "/v1/workflows/$WF_ID/status" 200 '{"active":true}')
[ "$(json_get j.data.active <<<"$body")" = true ] ||
  die "PUT /v1/workflows/$WF_ID/status: data.active is not true: $body"
request POST /__admin/reset 200 >/dev/null
REQ_S=$(secs "$t")

# ---- stop: SIGTERM, exit code 0 required (docker-local.sh stop fails otherwise)
t=$(now)
bounded "$STOP_LIMIT" "stopping ${CID:0:12}" bash "$DOCKER_LOCAL" stop "$CID"
CID=""
STOP_S=$(secs "$t")

# ---- the README's Docker commands: its `mkdir`/`printf` line as written, then its
# SCENARIO=my-scenario run with the folder mounted, as `podman run`
t=$(now)
README_DOCKER=$(awk '/^## Docker$/{on=1} on&&/^```sh$/{block=1;next} block&&/^```$/{exit} block' README.md)
SETUP_LINE=$(grep '^mkdir -p my-scenarios' <<<"$README_DOCKER") || die "README: no mkdir line in the Docker section"
grep -q -- '-e SCENARIO=my-scenario -v "$PWD/my-scenarios:/scenarios:ro"' <<<"$README_DOCKER" ||
  die "README: the Docker section no longer mounts my-scenarios as this script checks"
(cd "$WORK" && bash -euc "$SETUP_LINE")
chmod -R a+rX "$WORK/my-scenarios"
export RUN_ARGS="$BASE_RUN_ARGS -e SCENARIO=my-scenario -v $WORK/my-scenarios:/scenarios:ro"
CID=$(bounded "$START_LIMIT" "starting $IMAGE" bash "$DOCKER_LOCAL" start "$IMAGE" "$HOST_PORT")
body=$(request GET /__admin/health 200)
[ "$(json_get j.scenario <<<"$body")" = my-scenario ] || die "SCENARIO=my-scenario: health says $body"
request GET /v1/topics 200 >/dev/null
bounded "$STOP_LIMIT" "stopping ${CID:0:12}" bash "$DOCKER_LOCAL" stop "$CID"
CID=""

# ---- -e PORT=5000: reachable when that port is published, and the banner says which to publish
export RUN_ARGS="$BASE_RUN_ARGS -e PORT=5000"
CID=$(CONTAINER_PORT=5000 bounded "$START_LIMIT" "starting $IMAGE with PORT=5000" bash "$DOCKER_LOCAL" start "$IMAGE" "$HOST_PORT")
request GET /v1/topics 200 >/dev/null
# Captured first, then matched: `podman logs | grep -q` under pipefail fails when grep exits at
# the first match and podman logs dies of SIGPIPE (141), although the banner is right.
LOGS=$(bounded 30 "podman logs" podman logs "$CID" 2>&1)
grep -qF 'docker run -p HOST_PORT:5000' <<<"$LOGS" ||
  die "-e PORT=5000: the banner does not say to publish port 5000: $LOGS"
bounded "$STOP_LIMIT" "stopping ${CID:0:12}" bash "$DOCKER_LOCAL" stop "$CID"
CID=""

# ---- a broken scenario file stops the container at once: exit 2, the file, paths, line, column
mkdir -p "$WORK/bad"
printf 'seed: 7\ndata:\n  topics:\n    - key: ""\nclock: { mode: sometimes }\n' >"$WORK/bad/broken.yaml"
chmod -R a+rX "$WORK/bad"
set +e
# shellcheck disable=SC2086
BAD_OUT=$(bounded 60 "podman run with a broken scenario" podman run --rm --pull=never --label "$LABEL" -e SCENARIO=broken -v "$WORK/bad:/scenarios:ro" "$IMAGE" 2>&1)
BAD_CODE=$?
set -e
[ "$BAD_CODE" = 2 ] || die "a broken scenario file: exit code $BAD_CODE, not 2: $BAD_OUT"
for want in 'broken.yaml' 'data.topics.0.key (line 4, column 12)' 'clock.mode (line 5, column 16)'; do
  grep -qF -- "$want" <<<"$BAD_OUT" || die "a broken scenario file: the message lacks \"$want\": $BAD_OUT"
done
log "a broken scenario file: exit code 2, $(grep -m1 '^novu-mock:' <<<"$BAD_OUT" || true)"
CHECKS_S=$(secs "$t")

log "timings: build ${BUILD_S}s, start+healthy ${START_S}s, requests ${REQ_S}s, stop ${STOP_S}s, README and error checks ${CHECKS_S}s, total $(secs "$T_ALL")s"
log "image $IMAGE: ${SIZE_MB} MB, ${APP_MB} MB over the base image"
rm -rf "$WORK"
log "PASSED"
