#!/usr/bin/env bash
# Runs deploy/nginx.conf for real, as docs/deployment.md installs it, and checks what it promises:
# a private nginx on free loopback ports (paths, ports and a self-signed certificate swapped in
# by sed, nothing else changed) in front of two app processes on a throwaway PostgreSQL database.
# Checked: HTTP/2 over TLS, the app's compression passed through once, assets cached, /metrics
# not served, the client's address as the app sees it (a forged X-Forwarded-For is ignored), the
# 256 KB body limit, the uploads' own limits and the login rate limit answered in the API's error
# shape, GETs moved to the other app process when one dies, and a JSON 503 "try again" when both
# are gone.
# Needs nginx (Debian: apt-get install nginx-light), openssl, curl, jq, a built web (npm run
# build) and the machine's PostgreSQL (PGHOST/PGPORT/PGUSER, default 127.0.0.1/5432/postgres,
# without a password). Everything it made is removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/lib/checks.sh

need check-nginx 'Debian: apt-get install nginx-light openssl curl jq' nginx openssl curl jq psql createdb dropdb node
[ -f dist/web/index.html ] || { say "check-nginx: no built web in dist/web: run npm run build first" >&2; exit 2; }
need_postgres
build_server

free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{process.stdout.write(String(s.address().port));s.close()})'
}

work=$(mktemp -d /tmp/check-nginx.XXXXXX)
db="contest_nginx_check_$$"
nginx_pid='' app_pids=()

stop_app() {
  local pid=$1
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid"
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.2; done
  kill -KILL "$pid"
}
cleanup() {
  local status=$?
  set +e
  for pid in "${app_pids[@]}"; do stop_app "$pid"; done
  if [ -n "$nginx_pid" ]; then kill -QUIT "$nginx_pid" 2>/dev/null; wait "$nginx_pid" 2>/dev/null; fi
  dropdb --if-exists --force "$db" 2>/dev/null
  if [ "$status" -ne 0 ]; then
    say "--- nginx error log" >&2; tail -n 15 "$work/logs/"*error.log 2>/dev/null | cut -c1-400 >&2
    say "--- app logs (last 10 lines each)" >&2; tail -n 10 "$work"/app*.log 2>/dev/null | cut -c1-400 >&2
  fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

createdb "$db"
app1=$(free_port) app2=$(free_port) http_port=$(free_port) https_port=$(free_port)
mkdir -p "$work/logs" "$work/cache" "$work/temp" "$work/data"

# Two app processes as two app servers behind nginx, as in production (TRUST_PROXY=1, the compiled server).
start_app() {
  env NODE_ENV=production HOST=127.0.0.1 PORT="$1" PUBLIC_URL="http://127.0.0.1:$1" DEVICE_COOKIE_SECRET=check-only-device-cookie-secret-0123456789 DATABASE_URL="postgres://$PGUSER@$PGHOST:$PGPORT/$db" \
    WORKERS=1 TRUST_PROXY=1 DATA_DIR="$work/data" SEED_DEMO=1 SMS_DRIVER=log ALLOW_LOG_SMS_IN_PRODUCTION=1 \
    LOG_LEVEL=warn node dist/server/main.mjs >"$work/app-$1.log" 2>&1 &
  app_pids+=($!)
}
wait_ready() {
  for _ in $(seq 1 240); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$1/readyz")" = 200 ] && return 0
    sleep 0.25
  done
  fail "the app on port $1 is not ready"
}
start_app "$app1"
wait_ready "$app1" # the first one migrates and loads the demo content alone
start_app "$app2"
wait_ready "$app2"

openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=contest.example.vn \
  -keyout "$work/key.pem" -out "$work/cert.pem" >/dev/null 2>&1

# deploy/nginx.conf with this machine's ports and paths; every directive otherwise as shipped.
sed -e "s|^\(    listen\) 80;|\1 127.0.0.1:$http_port;|" \
    -e "s|^\(    listen\) 443 ssl http2;|\1 127.0.0.1:$https_port ssl http2;|" \
    -e '/listen \[::\]/d' \
    -e "s|/etc/letsencrypt/live/contest.example.vn/fullchain.pem|$work/cert.pem|" \
    -e "s|/etc/letsencrypt/live/contest.example.vn/privkey.pem|$work/key.pem|" \
    -e "s|/var/cache/nginx/reading-contest|$work/cache|" \
    -e "s|/var/log/nginx/|$work/logs/|" \
    -e "s|server 127.0.0.1:3000\([ ;]\)|server 127.0.0.1:$app1\1|" \
    -e "s|# server 10.0.0.12:3000\([ ;]\)|server 127.0.0.1:$app2\1|" \
    deploy/nginx.conf >"$work/site.conf"
[ "$(grep -c "server 127.0.0.1:$app2" "$work/site.conf")" = 2 ] || fail "could not adapt deploy/nginx.conf (upstream lines changed?)"
cat >"$work/nginx.conf" <<EOF
daemon off;
worker_processes 2;
pid $work/nginx.pid;
error_log $work/logs/error.log warn;
$( [ "$(id -u)" = 0 ] && echo 'user root;' )
events { worker_connections 2048; }
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    client_body_temp_path $work/temp/body;
    proxy_temp_path $work/temp/proxy;
    fastcgi_temp_path $work/temp/fastcgi;
    uwsgi_temp_path $work/temp/uwsgi;
    scgi_temp_path $work/temp/scgi;
    access_log off;
    include $work/site.conf;
}
EOF
nginx -t -q -c "$work/nginx.conf" -e "$work/logs/error.log" || fail "nginx -t refused the configuration"
nginx -c "$work/nginx.conf" -e "$work/logs/error.log" &
nginx_pid=$!
site="https://contest.example.vn:$https_port"
c() { curl -sk --resolve "contest.example.vn:$https_port:127.0.0.1" "$@"; }
for _ in $(seq 1 50); do c -o /dev/null "$site/" && break; sleep 0.1; done
say "ok   nginx -t accepts deploy/nginx.conf; nginx on 127.0.0.1:$https_port in front of two app processes"

[ "$(curl -s -o /dev/null -w '%{http_code} %{redirect_url}' "http://127.0.0.1:$http_port/x?y=1" -H 'host: contest.example.vn')" = \
  "301 https://contest.example.vn/x?y=1" ] || fail "port 80 does not redirect to https"
[ "$(c -o /dev/null -w '%{http_version} %{http_code}' --http2 "$site/")" = '2 200' ] || fail "no HTTP/2 200 for /"
say "ok   http redirects to https; HTTP/2 over TLS"

headers=$(c -o /dev/null -D - -H 'accept-encoding: br, gzip' "$site/api/blogs")
grep -qi '^content-encoding: br' <<<"$headers" || fail "/api/blogs (over 1 KB) not compressed by the app: $headers"
[ "$(grep -ci '^content-encoding' <<<"$headers")" = 1 ] || fail "compressed twice: $headers"
[ "$(c --compressed "$site/api/blogs" | jq -r .success)" = true ] || fail "/api/blogs through nginx"
say "ok   API through nginx, compressed once (by the app)"

asset=$(find dist/web/assets -maxdepth 1 -name '*.js' -printf '%f\n' | head -n 1)
for _ in 1 2; do
  headers=$(c -o /dev/null -D - "$site/assets/$asset")
  grep -q '^HTTP/2 200' <<<"$headers" || fail "/assets/$asset: $headers"
done
grep -qi '^cache-control: public, max-age=31536000, immutable' <<<"$headers" || fail "/assets/ without the long cache: $headers"
sleep 0.2
grep -q "GET /assets/$asset .*cache=HIT" "$work/logs/reading-contest.access.log" || fail "the second /assets/ request was not served from nginx's cache"
say "ok   /assets/ with a one-year immutable cache, kept in nginx's cache"

c "$site/metrics" | grep -q '^contest_' && fail "/metrics served through nginx"
[ "$(c -o /dev/null -w '%{http_code}' "$site/metrics")" = 404 ] || fail "/metrics is not 404"
[ "$(c -o /dev/null -w '%{http_code}' "$site/readyz")" = 200 ] || fail "/readyz from this machine is not 200"
say "ok   /metrics not served; /readyz answers this machine"

# The body limit: nginx's answer in the API's shape.
head -c 300000 /dev/zero | tr '\0' 'a' >"$work/big.txt"
answer=$(c -w ' %{http_code}' -H 'content-type: application/json' --data-binary @"$work/big.txt" "$site/api/login")
[ "${answer##* }" = 413 ] && [ "$(jq -r .code <<<"${answer% *}")" = payload_too_large ] || fail "a 300 KB body: $answer"
say "ok   a body over 256 KB: 413 payload_too_large"

# The uploads' own limits (10 MB for an import, 5 MB for a picture or a clip, plus 256 KB for the
# form): a file within them reaches the app (401 without a session), one over them is nginx's 413.
upload() { # size in KB, path: prints the status and the answer's code
  head -c "$(($1 * 1024))" /dev/zero >"$work/upload.bin"
  local answer
  answer=$(c -w ' %{http_code}' -F "file=@$work/upload.bin;filename=a.csv" "$site$2")
  echo "${answer##* } $(jq -r .code <<<"${answer% *}" 2>/dev/null)"
}
[ "$(upload 1024 /api/admin/schools/import)" = '401 unauthorized' ] || fail "a 1 MB import did not reach the app: $(upload 1024 /api/admin/schools/import)"
[ "$(upload 11264 /api/admin/schools/import)" = '413 payload_too_large' ] || fail "an 11 MB import was not refused by nginx"
[ "$(upload 4096 /api/admin/questions/audio)" = '401 unauthorized' ] || fail "a 4 MB clip did not reach the app"
[ "$(upload 6144 /api/admin/questions/audio)" = '413 payload_too_large' ] || fail "a 6 MB clip was not refused by nginx"
say "ok   uploads: within their route's limit to the app, over it 413 payload_too_large"

# Wrong passwords for different phones from one client that forges X-Forwarded-For: the app
# records the real address (127.0.0.1), and after the burst nginx answers 429 in the API's shape.
# Sent together, so that the burst (300) is spent before the rate (10 a second) refills it, however
# long the app takes to check each password (the app's own per-address limit may answer 429 first).
logins=()
for i in $(seq 100 459); do
  c -o "$work/login-$i.json" -w '%{http_code}' -H 'content-type: application/json' -H 'x-forwarded-for: 203.0.113.9' \
    --data "{\"phone\":\"0391234$i\",\"password\":\"sai-mat-khau\"}" "$site/api/login" >"$work/login-$i.code" &
  logins+=($!)
done
wait "${logins[@]}"
codes=''
for i in $(seq 100 459); do
  code=$(cat "$work/login-$i.code")
  codes="$codes $code"
  [ "$code" = 429 ] && cp "$work/login-$i.json" "$work/limited.json"
  [ "$code" = 503 ] && cp "$work/login-$i.json" "$work/busy.json"
done
busy=$( [ -s "$work/busy.json" ] && echo "; a 503 said: $(cat "$work/busy.json")")
grep -q 401 <<<"$codes" || fail "no wrong password reached the app: $codes$busy"
[ -s "$work/limited.json" ] || fail "360 logins in a row were never limited: $codes$busy"
[ "$(jq -r '.success, .code' "$work/limited.json" | tr '\n' ' ')" = 'false too_many_requests ' ] || fail "429 answer: $(cat "$work/limited.json")"
ips=$(psql -d "$db" -Atqc 'SELECT DISTINCT ip FROM login_failures')
[ "$ips" = 127.0.0.1 ] || fail "the app recorded the login failures from '$ips', not 127.0.0.1"
say "ok   logins: $(grep -o 401 <<<"$codes" | wc -l) reached the app, then 429 too_many_requests; the app saw 127.0.0.1, not the forged address"

# One app process dies: GETs go to the other one; a POST is not retried by nginx (the client retries).
{ kill -KILL "${app_pids[0]}"; wait "${app_pids[0]}"; } 2>/dev/null || true
bad=0
for _ in $(seq 1 20); do
  [ "$(c -o /dev/null -w '%{http_code}' "$site/api/site")" = 200 ] || bad=$((bad + 1))
done
[ "$bad" = 0 ] || fail "$bad of 20 GETs failed with one app process down"
say "ok   one app process killed: 20 of 20 GETs answered by the other"

stop_app "${app_pids[1]}"
answer=$(c -D "$work/headers.txt" -w ' %{http_code}' "$site/api/site")
[ "${answer##* }" = 503 ] && [ "$(jq -r .code <<<"${answer% *}")" = service_unavailable ] || fail "both app processes down: $answer"
grep -qi '^retry-after: 2' "$work/headers.txt" || fail "no Retry-After on nginx's 503"
jq -r .message <<<"${answer% *}" | grep -q 'Vui lòng thử lại' || fail "503 message: ${answer% *}"
say "ok   both app processes down: 503 service_unavailable with Retry-After and the Vietnamese message"
say "PASS: deploy/nginx.conf works as documented"
