#!/usr/bin/env bash
# Builds market-gateway's container image with podman and runs it, alone and as the scale-out
# stack (docs/deployment.md). Not part of `npm test`: it takes minutes (timings in
# docs/deployment.md) and needs root.
#
#   sudo scripts/container-test.sh                  # reuses localhost/node24-base:local if present
#   sudo scripts/container-test.sh --rebuild-base   # debootstraps the base again
#   sudo scripts/container-test.sh --no-stack       # the image alone, without the compose stack
#
# 1. the base: Debian bookworm (debootstrap) with Node 24 from the npm registry, tagged
#    localhost/node24-base:local (scripts/container-base.sh), and Debian alone, localhost/mgw-debian:local
# 2. the image: Containerfile on that base, tagged localhost/market-gateway:test; checks its size
#    (under 300 MB), its user (not root), that it holds no test, bench or dev dependency
# 3. alone, on the embedded store: /ready answers; a key made by `podman exec … keys create` reads
#    variant A's /markets; the HEALTHCHECK passes; SIGTERM stops it with exit 0 within the grace period
# 4. the stack (deploy/compose.yaml, podman-compose): PostgreSQL, Redis, HAProxy, two serve, two
#    workers; one key's minute quota (10) is shared exactly across the two serve instances; after
#    `down` and `up` the key still works (the data survived)
#
# Needs root and: podman, runc, debootstrap, podman-compose, curl, npm, strip (binutils), python3.
#   apt-get install -y podman runc debootstrap podman-compose curl npm binutils
# Every container, pod, network and volume it makes is removed at the end, whatever the outcome;
# the images stay (tagged above) so that the next run starts from them.
set -euo pipefail
root_dir="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root_dir"

rebuild_base=0
with_stack=1
for arg in "$@"; do
  case "$arg" in
    --rebuild-base) rebuild_base=1 ;;
    --no-stack) with_stack=0 ;;
    -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
    *) echo "container-test: unknown option $arg (see --help)" >&2; exit 2 ;;
  esac
done

say() { echo "container-test: $*" >&2; }
fail() { say "FAILED: $*"; exit 1; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
timings=()
timing() { timings+=("$(printf '%-44s %s' "$1" "$2")"); say "$1: $2"; }

# --- prerequisites ---
missing=()
for tool in podman runc debootstrap curl npm strip python3; do command -v "$tool" >/dev/null || missing+=("$tool"); done
((with_stack)) && { command -v podman-compose >/dev/null || missing+=(podman-compose); }
if ((${#missing[@]})); then
  say "missing: ${missing[*]}"
  say "install them with: apt-get install -y podman runc debootstrap podman-compose curl npm binutils python3"
  exit 2
fi
[[ $(id -u) -eq 0 ]] || { say "run it as root (debootstrap, and podman with runc and cgroupfs)"; exit 2; }

script_start="$(now)"
run_id="mgw-ct-$$"
work="$(mktemp -d "/var/tmp/$run_id.XXXXXX")"
single="$run_id-single"
single_volume="$run_id-data"
project="${run_id//-/}"
compose=(podman-compose -p "$project" -f "$root_dir/deploy/compose.yaml")

# Podman as root on cgroupfs, without default ulimits, on runc: what works on these machines
# (systemd is not PID 1, and the kernel refuses podman's default ulimits). An operator's own
# CONTAINERS_CONF wins.
if [[ -z "${CONTAINERS_CONF:-}" ]]; then
  printf '[containers]\ndefault_ulimits = []\n[engine]\ncgroup_manager = "cgroupfs"\nruntime = "runc"\n' >"$work/containers.conf"
  export CONTAINERS_CONF="$work/containers.conf"
fi

cleanup() {
  local status=$?
  set +e
  if ((status != 0)); then
    podman logs --tail 40 "$single" 2>/dev/null | sed 's/^/  single: /' >&2
    for c in $(podman ps -a --filter "label=io.podman.compose.project=$project" --format '{{.Names}}' 2>/dev/null); do
      podman logs --tail 15 "$c" 2>&1 | sed "s/^/  $c: /" >&2
    done
  fi
  podman rm -f -t 0 "$single" >/dev/null 2>&1
  podman volume rm -f "$single_volume" >/dev/null 2>&1
  if ((with_stack)); then
    # podman-compose's down leaves the containers' anonymous volumes and the network: named here.
    local anonymous
    anonymous="$(podman ps -a -q --filter "label=io.podman.compose.project=$project" | xargs -r podman inspect --format '{{range .Mounts}}{{if eq .Type "volume"}}{{.Name}} {{end}}{{end}}' 2>/dev/null)"
    "${compose[@]}" down -v -t 0 >/dev/null 2>&1
    podman ps -a -q --filter "label=io.podman.compose.project=$project" | xargs -r podman rm -f -v -t 0 >/dev/null 2>&1
    for v in $anonymous; do podman volume rm -f "$v" >/dev/null 2>&1; done
    podman pod ls -q --filter "name=$project" | xargs -r podman pod rm -f >/dev/null 2>&1
    podman volume ls -q --filter "label=io.podman.compose.project=$project" | xargs -r podman volume rm -f >/dev/null 2>&1
    podman network ls -q --filter "label=io.podman.compose.project=$project" | xargs -r podman network rm -f >/dev/null 2>&1
  fi
  rm -rf "$work"
  ((status == 0)) || say "cleaned up after the failure (exit $status)"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# wait_http <url> <seconds>: until the URL answers 200
wait_http() {
  local deadline=$((SECONDS + $2))
  until curl -fsS -o /dev/null --max-time 2 "$1" 2>/dev/null; do
    ((SECONDS < deadline)) || return 1
    sleep 0.25
  done
}
json_key() { python3 -c 'import json, sys; print(json.load(sys.stdin)["key"])'; }

# --- 1. the base ---
base=localhost/node24-base:local
debian=localhost/mgw-debian:local
if ((rebuild_base)) || ! podman image exists "$base" || ! podman image exists "$debian"; then
  t="$(now)"
  scripts/container-base.sh --debian-tag "$debian" "$base"
  timing "base build (debootstrap + Node)" "$(since "$t") s"
else
  say "reusing $base and $debian (--rebuild-base builds them again)"
  timing "base build (debootstrap + Node)" "reused"
fi

# A proxy that inspects TLS (this machine's egress) signs with a CA the base does not know:
# handed to npm as a build secret, it never lands in a layer.
build_secret=()
cas=(/usr/local/share/ca-certificates/*.crt)
if [[ -n "${MGW_BUILD_CA:-}" ]]; then
  build_secret=(--secret "id=npm-ca,src=$MGW_BUILD_CA")
elif [[ -e "${cas[0]}" ]]; then
  cat "${cas[@]}" >"$work/build-ca.pem"
  build_secret=(--secret "id=npm-ca,src=$work/build-ca.pem")
fi

# --- 2. the image ---
image=localhost/market-gateway:test
t="$(now)"
podman build --format docker --layers \
  --build-arg BASE_IMAGE="$base" \
  --build-arg VERSION="$(python3 -c 'import json; print(json.load(open("package.json"))["version"])')" \
  --build-arg REVISION="$(git rev-parse HEAD 2>/dev/null || echo unknown)" \
  --build-arg CREATED="$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
  "${build_secret[@]}" -f Containerfile -t "$image" . >"$work/build.log" 2>&1 || { tail -n 40 "$work/build.log" >&2; fail "podman build"; }
timing "image build" "$(since "$t") s"

size="$(podman image inspect --format '{{.Size}}' "$image")"
timing "image size" "$((size / 1000000)) MB ($size bytes)"
((size < 300000000)) || fail "the image is $((size / 1000000)) MB, not under 300 MB"
user="$(podman image inspect --format '{{.Config.User}}' "$image")"
[[ -n "$user" && "$user" != root* && "$user" != 0* ]] || fail "the image runs as '${user:-root}'"
podman image inspect --format '{{json .Config.Healthcheck}}' "$image" | grep -q '/health' || fail "no HEALTHCHECK on /health"
podman image inspect --format '{{index .Labels "org.opencontainers.image.title"}}' "$image" | grep -qx market-gateway || fail "no OCI labels"
# No test, bench or dev dependency: none of the packages package-lock.json marks dev-only (what
# only the devDependencies need; a package both sides need, ajv say, is a production one), and no
# test/, bench/ or src/ in /app.
python3 -c 'import json; print("\n".join(p for p, e in json.load(open("package-lock.json"))["packages"].items() if e.get("dev")))' >"$work/dev-only.txt"
[[ -s "$work/dev-only.txt" ]] || fail "package-lock.json marks no package dev-only"
podman run -i --rm --entrypoint sh "$image" -c '
  cd /app || exit 1
  [ "$(id -u)" != 0 ] || { echo "runs as root"; exit 1; }
  found=0
  while read -r p; do [ ! -e "$p" ] || { echo "dev-only package $p"; found=1; }; done
  [ "$found" = 0 ] || exit 1
  [ ! -e test ] && [ ! -e bench ] && [ ! -e src ] && [ ! -e dist/test ] && [ ! -e dist/bench ] || { echo "test, bench or src in /app"; exit 1; }
  [ "$(ls dist)" = src ] || { echo "dist/ holds $(ls dist)"; exit 1; }' <"$work/dev-only.txt" 2> >(grep -v 'systemd connection' >&2) || fail "the image holds what production does not need"
say "image: user $user, none of the $(wc -l <"$work/dev-only.txt") dev-only packages, HEALTHCHECK and labels present"

# --- 3. alone, on the embedded store ---
port_a="$(free_port)"
port_b="$(free_port)"
t="$(now)"
# (podman logs an error that it cannot reach systemd to time the HEALTHCHECK: here it is run by hand)
podman run -d --name "$single" -p "127.0.0.1:$port_a:4000" -p "127.0.0.1:$port_b:4001" \
  -v "$single_volume:/var/lib/market-gateway" "$image" >/dev/null 2>"$work/run.log" || { cat "$work/run.log" >&2; fail "podman run"; }
wait_http "http://127.0.0.1:$port_a/ready" 120 || fail "/ready did not answer 200 within 120 s"
timing "container start to /ready (embedded store)" "$(since "$t") s"
key="$(podman exec "$single" market-gateway keys create --plan free --json | json_key)"
[[ "$key" == mgw_* ]] || fail "keys create gave no key"
status="$(curl -s -o "$work/markets.json" -w '%{http_code}' -H "Authorization: Bearer $key" "http://127.0.0.1:$port_a/api/v1/markets?limit=3")"
[[ "$status" == 200 ]] && grep -q '"success":true' "$work/markets.json" || fail "A /api/v1/markets answered $status: $(head -c 300 "$work/markets.json")"
say "a key made with podman exec read A /api/v1/markets (200)"
# GraphQL, the REST reference and the dashboard: what the pruned node_modules must still serve.
curl -fsS -H "Authorization: Bearer $key" -H 'Content-Type: application/json' "http://127.0.0.1:$port_a/graphql" \
  -d '{"query":"{ assetMarkets(limit: 1) { items { symbol } } }"}' | grep -q '"symbol"' || fail "/graphql gave no market"
curl -fsS -o /dev/null "http://127.0.0.1:$port_b/docs/" || fail "/docs did not answer"
curl -fsS -o /dev/null "http://127.0.0.1:$port_a/account" || fail "the dashboard (/account) did not answer"
say "/graphql, /docs and the dashboard answer"
podman healthcheck run "$single" >/dev/null 2>&1 || fail "the HEALTHCHECK failed"
say "HEALTHCHECK: healthy"

grace=20
t="$(now)"
podman stop -t "$grace" "$single" >/dev/null 2>&1
stop_s="$(since "$t")"
exit_code="$(podman inspect --format '{{.State.ExitCode}}' "$single")"
timing "SIGTERM to exit (grace ${grace} s)" "$stop_s s, exit $exit_code"
[[ "$exit_code" == 0 ]] || fail "exit code $exit_code after SIGTERM"
awk -v s="$stop_s" -v g="$grace" 'BEGIN { exit !(s < g) }' || fail "SIGTERM took $stop_s s: the grace period ran out (SIGKILL)"
podman logs "$single" 2>&1 | grep -q 'market-gateway stopped' || fail "no 'market-gateway stopped' line in the log"

# --- 4. the scale-out stack ---
if ((with_stack)); then
  t="$(now)"
  for svc in postgres redis haproxy; do
    podman build --layers --build-arg DEBIAN_IMAGE="$debian" -f "deploy/local-images/$svc.Containerfile" \
      -t "localhost/mgw-$svc:local" deploy/local-images >"$work/build-$svc.log" 2>&1 || { tail -n 30 "$work/build-$svc.log" >&2; fail "building localhost/mgw-$svc:local"; }
  done
  timing "PostgreSQL, Redis, HAProxy stand-ins build" "$(since "$t") s"

  export MGW_IMAGE="$image" MGW_POSTGRES_IMAGE=localhost/mgw-postgres:local MGW_REDIS_IMAGE=localhost/mgw-redis:local \
    MGW_PROXY_IMAGE=localhost/mgw-haproxy:local MGW_PORT_A="$(free_port)" MGW_PORT_B="$(free_port)"
  # serve1, serve2: their containers' names under podman-compose
  serve1="${project}_serve1_1"
  serve2="${project}_serve2_1"
  stack_ready() { # both serve instances ready, and both variants through the proxy
    local deadline=$((SECONDS + $1)) c
    for c in "$serve1" "$serve2"; do
      until podman exec "$c" node -e "fetch('http://127.0.0.1:4000/ready').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))" 2>/dev/null; do
        ((SECONDS < deadline)) || return 1
        sleep 1
      done
    done
    wait_http "http://127.0.0.1:$MGW_PORT_A/ready" $((deadline - SECONDS)) && wait_http "http://127.0.0.1:$MGW_PORT_B/ready" $((deadline - SECONDS))
  }

  t="$(now)"
  "${compose[@]}" up -d >"$work/compose-up.log" 2>&1 || { tail -n 30 "$work/compose-up.log" >&2; fail "podman-compose up"; }
  stack_ready 240 || fail "the stack was not ready within 240 s"
  timing "compose stack start to ready (first start)" "$(since "$t") s"

  key="$(podman exec "$serve1" market-gateway keys create --plan free --json | json_key)"
  # The free plan admits 10 requests a minute. Sent alternately to serve1 and serve2 (not through
  # the proxy, so each instance surely gets half), 12 each: exactly 10 are admitted in all. Started
  # early in a minute, so that the window does not turn during the burst.
  (( $(date +%-S) < 45 )) || sleep $((61 - $(date +%-S)))
  counts="$(podman exec -e KEY="$key" "$serve1" node -e '
    const seen = { serve1: {}, serve2: {} };
    (async () => {
      for (let i = 0; i < 12; i++) for (const host of ["serve1", "serve2"]) {
        const r = await fetch(`http://${host}:4000/api/v1/markets?limit=1`, { headers: { authorization: `Bearer ${process.env.KEY}` } });
        seen[host][r.status] = (seen[host][r.status] ?? 0) + 1;
      }
      console.log(JSON.stringify(seen));
    })();')"
  say "per instance, status: count: $counts"
  python3 - "$counts" <<'EOF' || fail "the quota was not shared exactly: $counts"
import json, sys
seen = json.loads(sys.argv[1])
ok = sum(s.get("200", 0) for s in seen.values())
limited = sum(s.get("429", 0) for s in seen.values())
both = all(s.get("200", 0) > 0 for s in seen.values())
sys.exit(0 if ok == 10 and limited == 14 and both else 1)
EOF
  status="$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $key" "http://127.0.0.1:$MGW_PORT_A/api/v1/markets")"
  [[ "$status" == 429 ]] || fail "through the proxy, the spent key got $status, not 429"
  status="$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$MGW_PORT_A/metrics")"
  [[ "$status" == 404 ]] || fail "the proxy let /metrics through ($status)"
  say "one key's quota shared exactly across serve1 and serve2 (10 admitted of 24); the proxy answers 429 for it too"

  # down (the volumes stay) and up: the key made before still authenticates.
  t="$(now)"
  "${compose[@]}" down -t 15 >"$work/compose-down.log" 2>&1 || { tail -n 30 "$work/compose-down.log" >&2; fail "podman-compose down"; }
  timing "compose stack stop (down)" "$(since "$t") s"
  t="$(now)"
  "${compose[@]}" up -d >"$work/compose-up2.log" 2>&1 || { tail -n 30 "$work/compose-up2.log" >&2; fail "podman-compose up (again)"; }
  stack_ready 240 || fail "the stack was not ready again within 240 s"
  timing "compose stack start to ready (restart)" "$(since "$t") s"
  status="$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $key" "http://127.0.0.1:$MGW_PORT_A/api/v1/markets")"
  [[ "$status" == 200 || "$status" == 429 ]] || fail "after the restart the key got $status (its account is gone?)"
  say "after down and up the key still authenticates ($status): the data survived"
fi

timing "whole script" "$(since "$script_start") s"
say "PASSED"
printf '%s\n' "${timings[@]}"
