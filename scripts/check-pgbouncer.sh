#!/usr/bin/env bash
# Runs the app through PgBouncer in transaction pooling, as docs/deployment.md describes, and
# checks that it works: a private PgBouncer on a free loopback port in a temp folder, in front of
# the machine's PostgreSQL, a throwaway database, the app (two workers, production settings) on a
# free port, then /readyz, public reads, and an exam (login, start, autosaves, timer, submit), which
# is the path of the hot statements that PgBouncer < 1.21 cannot keep as named prepared statements.
# Everything it made is removed at the end; the machine's PostgreSQL is never restarted.
#
#   scripts/check-pgbouncer.sh     PGHOST/PGPORT/PGUSER default to 127.0.0.1/5432/postgres (the
#                                  server must let that user in without a password); PGBOUNCER
#                                  names another pgbouncer binary (default: the one on PATH)
#
# PgBouncer < 1.21 (Debian 12 ships 1.18): the app runs with DATABASE_NAMED_STATEMENTS=0.
# PgBouncer 1.21+: max_prepared_statements is set and the app keeps its named statements.
# Exit status: 0 all passed, 1 a check failed, 2 a tool is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/lib/checks.sh

PGBOUNCER="${PGBOUNCER:-pgbouncer}"
need check-pgbouncer 'Debian: apt-get install pgbouncer postgresql-client curl jq' "$PGBOUNCER" psql createdb dropdb curl jq node
need_postgres
build_server

free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{process.stdout.write(String(s.address().port));s.close()})'
}

version=$("$PGBOUNCER" --version | awk 'NR==1 {print $2}')
# 1.21 added prepared statements in transaction mode (max_prepared_statements).
if [ "$(printf '%s\n' 1.21 "$version" | sort -V | head -1)" = 1.21 ]; then
  named=1
else
  named=0
fi

work=$(mktemp -d /tmp/check-pgbouncer.XXXXXX)
chmod 755 "$work" # PgBouncer drops root for 'nobody', which must read its config
db="contest_pgbouncer_check_$$"
bouncer_pid='' app_pid=''

cleanup() {
  local status=$?
  set +e
  if [ -n "$app_pid" ] && kill -0 "$app_pid" 2>/dev/null; then
    kill -TERM "$app_pid"
    for _ in $(seq 1 100); do kill -0 "$app_pid" 2>/dev/null || break; sleep 0.2; done
    kill -0 "$app_pid" 2>/dev/null && { say "the app did not stop within 20 s of SIGTERM" >&2; kill -KILL "$app_pid"; status=1; }
  fi
  if [ -n "$bouncer_pid" ]; then kill -TERM "$bouncer_pid" 2>/dev/null; wait "$bouncer_pid" 2>/dev/null; fi
  dropdb --if-exists --force "$db" 2>/dev/null
  if [ "$status" -ne 0 ]; then
    say "--- app log (last 20 lines)" >&2; tail -n 20 "$work/app.log" 2>/dev/null | cut -c1-400 >&2
    say "--- pgbouncer log (last 15 lines)" >&2; tail -n 15 "$work/pgbouncer.log" 2>/dev/null | cut -c1-400 >&2
  fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

createdb "$db"
bouncer_port=$(free_port)
app_port=$(free_port)
metrics_port=$(free_port)

# Few server connections for many client connections: every worker's pool (20) shares 4 server
# connections, so statements of one client run on several server connections, as in production.
printf '"%s" ""\n' "$PGUSER" >"$work/userlist.txt"
cat >"$work/pgbouncer.ini" <<EOF
[databases]
$db = host=$PGHOST port=$PGPORT dbname=$db
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $bouncer_port
unix_socket_dir =
auth_type = trust
auth_file = $work/userlist.txt
admin_users = $PGUSER
pool_mode = transaction
default_pool_size = 4
max_client_conn = 200
ignore_startup_parameters = extra_float_digits
EOF
[ "$named" = 1 ] && echo 'max_prepared_statements = 200' >>"$work/pgbouncer.ini"

say "PgBouncer $version on 127.0.0.1:$bouncer_port (transaction pooling), database $db, DATABASE_NAMED_STATEMENTS=$named"
# PgBouncer refuses to run as root.
if [ "$(id -u)" = 0 ]; then as_user=(-u nobody); else as_user=(); fi
"$PGBOUNCER" "${as_user[@]}" "$work/pgbouncer.ini" >"$work/pgbouncer.log" 2>&1 &
bouncer_pid=$!
for _ in $(seq 1 50); do
  psql -h 127.0.0.1 -p "$bouncer_port" -d "$db" -Atqc 'SELECT 1' >/dev/null 2>&1 && break
  kill -0 "$bouncer_pid" 2>/dev/null || fail "pgbouncer exited at start"
  sleep 0.1
done

# The app as in production (NODE_ENV=production, the compiled server), with the log SMS driver and the demo content.
env NODE_ENV=production HOST=127.0.0.1 PORT="$app_port" PUBLIC_URL="http://127.0.0.1:$app_port" DEVICE_COOKIE_SECRET=check-only-device-cookie-secret-0123456789 \
  DATABASE_URL="postgres://$PGUSER@127.0.0.1:$bouncer_port/$db" DATABASE_POOL_SIZE=20 \
  DATABASE_NAMED_STATEMENTS="$named" WORKERS=2 METRICS_PORT="$metrics_port" METRICS_HOST=127.0.0.1 \
  DATA_DIR="$work/data" SEED_DEMO=1 SMS_DRIVER=log ALLOW_LOG_SMS_IN_PRODUCTION=1 LOG_LEVEL=warn \
  node dist/server/main.mjs >"$work/app.log" 2>&1 &
app_pid=$!

base="http://127.0.0.1:$app_port"
ready=''
for _ in $(seq 1 240); do
  kill -0 "$app_pid" 2>/dev/null || fail "the app exited at start"
  if [ "$(curl -s -o /dev/null -w '%{http_code}' "$base/readyz")" = 200 ]; then ready=1; break; fi
  sleep 0.25
done
[ -n "$ready" ] || fail "/readyz not 200 within 60 s"
say "ok   /readyz 200 through PgBouncer"

# GET or POST (with a JSON body) that must answer 200 with success: true; prints the body.
api() {
  local method=$1 path=$2 body=${3:-} token=${4:-} out code
  local args=(-s -o "$work/answer.json" -w '%{http_code}' -X "$method" -H 'accept: application/json')
  [ -n "$token" ] && args+=(-H "authorization: Bearer $token")
  [ -n "$body" ] && args+=(-H 'content-type: application/json' --data "$body")
  code=$(curl "${args[@]}" "$base$path")
  out=$(cat "$work/answer.json")
  if [ "$code" != 200 ] || [ "$(jq -r .success <<<"$out")" != true ]; then
    fail "$method $path answered $code: ${out:0:300}"
  fi
  printf '%s' "$out"
}

for path in /api/site /api/districts /api/class-groups /api/blogs; do
  api GET "$path" >/dev/null
done
say "ok   GET /api/site, /api/districts, /api/class-groups, /api/blogs"

# Many at once, so that both workers' pools use several PgBouncer server connections together.
seq 1 40 | xargs -P 20 -I{} curl -s -o /dev/null -w '%{http_code}\n' "$base/api/districts" >"$work/codes.txt"
[ "$(sort -u "$work/codes.txt")" = 200 ] || fail "40 concurrent GET /api/districts: $(sort "$work/codes.txt" | uniq -c | tr '\n' ' ')"
say "ok   40 concurrent GET /api/districts"

# An exam of the demo parent's first child: the hot statements (save, timer) through PgBouncer.
token=$(api POST /api/login '{"phone":"0987654321","password":"phuhuynh123"}' | jq -r .access_token)
child=$(api GET /api/profile '' "$token" | jq -r '.data.childrens[0].id')
book=$(api GET "/api/children/$child/books" '' "$token" | jq -r '.data[0].id')
started=$(api POST /api/start-exam "{\"book_id\":$book,\"child_id\":$child}" "$token")
exam_id=$(jq -r .exam_id <<<"$started")
slug=$(jq -r .slug <<<"$started")
exam=$(api GET "/api/examing?book_id=$book&child_id=$child&slug_exam=$slug" '' "$token")
# Every question answered with its first option; saved 30 times from 10 clients at once.
answers=$(jq -c '[.data.data_questions[] | {question_id: .id, answer_id: .answers[0].id}]' <<<"$exam")
seq 1 30 | xargs -P 10 -I{} curl -s -o /dev/null -w '%{http_code}\n' -X POST \
  -H "authorization: Bearer $token" -H 'content-type: application/json' \
  --data "{\"exam_id\":$exam_id,\"slug\":\"$slug\",\"answers\":$answers,\"prediction\":1234,\"seq\":{}}" \
  "$base/api/store-answers-exam" >"$work/codes.txt"
[ "$(sort -u "$work/codes.txt")" = 200 ] || fail "30 concurrent saves: $(sort "$work/codes.txt" | uniq -c | tr '\n' ' ')"
saved=$(api GET "/api/examing?book_id=$book&child_id=$child&slug_exam=$slug" '' "$token")
[ "$(jq -r .data.save_seq <<<"$saved")" = 30 ] || fail "after 30 saves the exam's save_seq is $(jq -r .data.save_seq <<<"$saved")"
for _ in 1 2 3 4 5; do api GET "/api/examing/get-time?exam_id=$exam_id" '' "$token" >/dev/null; done
count=$(jq length <<<"$answers")
points=$(api POST /api/submit-exam "{\"exam_id\":$exam_id,\"slug\":\"$slug\",\"answers\":$answers,\"prediction\":1234,\"seq\":31}" "$token" | jq -r .data.points)
say "ok   exam: login, start, 30 concurrent autosaves (save_seq 30), timer, submit ($count answers, $points points)"

# The public port has no /metrics (with the built web, the single-page app answers that path).
curl -s "$base/metrics" | grep -q '^contest_' && fail "the public port serves the metrics"
curl -sf "http://127.0.0.1:$metrics_port/metrics" >"$work/metrics.txt" || fail "no metrics on 127.0.0.1:$metrics_port"
grep -q '^contest_exam_saves_acknowledged_total' "$work/metrics.txt" || fail "the metrics have no contest_exam_saves_acknowledged_total"
say "ok   /metrics only on the metrics port"

# PgBouncer's own account: the traffic really went through it. stat NAME: that column of SHOW STATS
# for our database (the columns differ between versions), empty when the version has none.
psql -h 127.0.0.1 -p "$bouncer_port" -d pgbouncer -qc 'SHOW STATS' --csv >"$work/stats.csv"
stat() {
  awk -F, -v db="$db" -v name="$1" 'NR == 1 {for (i = 1; i <= NF; i++) if ($i == name) col = i; next}
    $1 == db && col {print $col}' "$work/stats.csv"
}
xacts=$(stat total_xact_count)
[ "${xacts:-0}" -gt 0 ] || fail "PgBouncer counted no transaction for $db"
if grep -qiE '"level":(50|60)|prepared statement' "$work/app.log"; then
  fail "errors in the app log: $(grep -iE '"level":(50|60)|prepared statement' "$work/app.log" | head -3 | cut -c1-300)"
fi
parses=''
[ "$named" = 1 ] && parses=", prepared statements parsed $(stat total_client_parse_count) times by the app, $(stat total_server_parse_count) by PostgreSQL"
say "ok   PgBouncer carried $xacts transactions$parses; no error in the app log"
say "PASS: the app works through PgBouncer $version in transaction pooling (DATABASE_NAMED_STATEMENTS=$named)"
