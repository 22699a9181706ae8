#!/usr/bin/env bash
# Proves that scripts/backup-db.sh and scripts/restore-db.sh give back the same data: on the
# machine's PostgreSQL, a throwaway database gets the migrations, the demo content and about
# 1,100 simulated finished exams with computed results; it is backed up and restored by the
# superuser into a second throwaway database as a throwaway app role (the production way), and
# every table is compared (row count and a checksum of its rows), as are the sequences. Then the
# app, as that role, is started on the restored copy (no migration may be left to apply), a new
# parent registers (the new row's id must follow the restored ones) and the demo school's
# administrator reads the school report. Also checked: retention deletes only old backups of
# this database, a failed backup exits non-zero and leaves no file, and a restore into a
# non-empty database is refused without --force and works with it.
# The databases, the role and every file are removed at the end; the server is never restarted.
#
#   scripts/check-backup-restore.sh     PGHOST/PGPORT/PGUSER default to 127.0.0.1/5432/postgres
#                                       (the server must let that user in without a password)
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/lib/checks.sh

need check-backup-restore '' pg_dump pg_restore psql createdb dropdb curl jq node
need_postgres
build_server

work=$(mktemp -d /tmp/check-backup-restore.XXXXXX)
source_db="contest_backup_check_$$"
restored_db="contest_restore_check_$$"
# The app's own role, as in production: the copy is restored as it and the app runs as it.
app_role="contest_restore_role_$$"
url() { printf 'postgres://%s@%s:%s/%s' "${2:-$PGUSER}" "$PGHOST" "$PGPORT" "$1"; }
app_pid=''

cleanup() {
  local status=$?
  set +e
  if [ -n "$app_pid" ] && kill -0 "$app_pid" 2>/dev/null; then
    kill -TERM "$app_pid"
    for _ in $(seq 1 100); do kill -0 "$app_pid" 2>/dev/null || break; sleep 0.2; done
    kill -0 "$app_pid" 2>/dev/null && kill -KILL "$app_pid"
  fi
  dropdb --if-exists --force "$source_db" 2>/dev/null
  dropdb --if-exists --force "$restored_db" 2>/dev/null
  psql -d postgres -qc "DROP ROLE IF EXISTS $app_role" 2>/dev/null
  if [ "$status" -ne 0 ] && [ -s "$work/app.log" ]; then
    say "--- app log (last 20 lines)" >&2; tail -n 20 "$work/app.log" | cut -c1-400 >&2
  fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# 1. A database with content: migrations, demo content, simulated exams and computed results.
createdb "$source_db"
DATABASE_URL=$(url "$source_db") node scripts/server-command.mjs seed >"$work/seed.log" 2>&1 ||
  { cat "$work/seed.log" >&2; fail "seed failed"; }
DATABASE_URL=$(url "$source_db") node scripts/server-command.mjs demo-results --publish >>"$work/seed.log" 2>&1 ||
  { cat "$work/seed.log" >&2; fail "demo results failed"; }
exams=$(psql -d "$source_db" -Atqc 'SELECT count(*) FROM exams')
say "ok   source database $source_db: demo content and $exams exams"

# 2. Backup, with retention: an old backup of this database goes, other files stay.
backups="$work/backups"
mkdir -p "$backups"
touch -d '20 days ago' "$backups/$source_db-20000101T000000Z.dump" "$backups/other_db-20000101T000000Z.dump" "$backups/notes.txt"
touch -d '2 days ago' "$backups/$source_db-20000102T000000Z.dump"
scripts/backup-db.sh --dir "$backups" --keep-days 7 "$(url "$source_db")" >"$work/backup.log" || { cat "$work/backup.log" >&2; fail "backup-db.sh failed"; }
dump=''
for file in "$backups/$source_db"-2???????T??????Z.dump; do
  case "$file" in *-2000010[12]T*) ;; *) dump=$file ;; esac # not one of the planted old ones
done
[ -n "$dump" ] && [ -s "$dump" ] || fail "no backup file in $backups: $(ls "$backups")"
[ ! -e "$backups/$source_db-20000101T000000Z.dump" ] || fail "retention kept a 20-day-old backup"
for kept in "$source_db-20000102T000000Z.dump" other_db-20000101T000000Z.dump notes.txt; do
  [ -e "$backups/$kept" ] || fail "retention deleted $kept"
done
[ "$(stat -c %a "$dump")" = 600 ] || fail "the backup is readable by others (mode $(stat -c %a "$dump"))"
say "ok   backup $(basename "$dump") ($(du -h "$dump" | cut -f1)); retention deleted only the old backup of this database"

# A backup that cannot be made fails loudly and leaves nothing behind.
if scripts/backup-db.sh --dir "$backups" "$(url contest_no_such_database_$$)" >/dev/null 2>&1; then
  fail "backup-db.sh of a missing database exited 0"
fi
for file in "$backups"/*; do
  case "$file" in *contest_no_such_database* | *.partial) fail "a failed backup left $file" ;; esac
done
say "ok   a failed backup exits non-zero and leaves no file"

# 3. Restore into a new database, by the superuser, as the app's role (the production way).
psql -d postgres -qc "CREATE ROLE $app_role LOGIN"
scripts/restore-db.sh --create --role "$app_role" "$dump" "$(url "$restored_db")" >"$work/restore.log" 2>&1 ||
  { cat "$work/restore.log" >&2; fail "restore-db.sh failed"; }
owner=$(psql -d postgres -Atqc "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = '$restored_db'")
others=$(psql -d "$restored_db" -Atqc "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = 'public' AND pg_get_userbyid(c.relowner) <> '$app_role'")
[ "$owner" = "$app_role" ] && [ "$others" = 0 ] || fail "restored database owned by $owner, $others objects not owned by $app_role"
say "ok   restored into new database $restored_db, it and every object owned by the app's role"

# 4. Every table: row count and a checksum of its rows in a fixed order; every sequence's value.
tables_sql="SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"
[ "$(psql -d "$source_db" -Atqc "$tables_sql")" = "$(psql -d "$restored_db" -Atqc "$tables_sql")" ] || fail "the table lists differ"
fingerprint() {
  local db=$1 table
  for table in $(psql -d "$db" -Atqc "$tables_sql"); do
    psql -d "$db" -Atqc "SELECT '$table', count(*), md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) FROM public.\"$table\" t"
  done
  psql -d "$db" -Atqc "SELECT 'sequence ' || sequencename, last_value FROM pg_sequences WHERE schemaname = 'public' ORDER BY 1"
}
fingerprint "$source_db" >"$work/source.txt"
fingerprint "$restored_db" >"$work/restored.txt"
if ! diff -u "$work/source.txt" "$work/restored.txt" >"$work/diff.txt"; then
  cat "$work/diff.txt" >&2
  fail "the restored database differs from the source"
fi
tables=$(grep -vc '^sequence ' "$work/source.txt")
rows=$(grep -v '^sequence ' "$work/source.txt" | awk -F'|' '{sum += $2} END {print sum}')
sequences=$(grep -c '^sequence ' "$work/source.txt" || true)
say "ok   $tables tables ($rows rows) and $sequences sequences identical (counts and row checksums)"

# 5. Refused without --force into a database that has tables; replaced with --force.
set +e
scripts/restore-db.sh "$dump" "$(url "$restored_db")" >"$work/refused.log" 2>&1
refused=$?
set -e
[ "$refused" = 3 ] || { cat "$work/refused.log" >&2; fail "a restore into a non-empty database exited $refused, not 3"; }
# A change that the comparison must see, and the forced restore must undo.
psql -d "$restored_db" -qc "UPDATE news_posts SET name = name || '.' WHERE id = (SELECT min(id) FROM news_posts)"
fingerprint "$restored_db" >"$work/changed.txt"
diff -q "$work/source.txt" "$work/changed.txt" >/dev/null && fail "the comparison did not see a changed row"
scripts/restore-db.sh --force --role "$app_role" "$dump" "$(url "$restored_db")" >"$work/forced.log" 2>&1 || { cat "$work/forced.log" >&2; fail "restore --force failed"; }
fingerprint "$restored_db" >"$work/forced.txt"
diff -q "$work/source.txt" "$work/forced.txt" >/dev/null || fail "after restore --force the database differs from the source"
say "ok   a non-empty database is refused without --force (exit 3) and replaced with it"

# 6. The app (the compiled server, as in production), as the app's role, on the restored copy: nothing to migrate, a registration, the
# school report.
port=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{process.stdout.write(String(s.address().port));s.close()})')
env NODE_ENV=production HOST=127.0.0.1 PORT="$port" PUBLIC_URL="http://127.0.0.1:$port" DEVICE_COOKIE_SECRET=check-only-device-cookie-secret-0123456789 DATABASE_URL="$(url "$restored_db" "$app_role")" WORKERS=1 \
  DATA_DIR="$work/data" SEED_DEMO=0 SMS_DRIVER=log ALLOW_LOG_SMS_IN_PRODUCTION=1 LOG_LEVEL=info \
  node dist/server/main.mjs >"$work/app.log" 2>&1 &
app_pid=$!
base="http://127.0.0.1:$port"
for _ in $(seq 1 240); do
  kill -0 "$app_pid" 2>/dev/null || fail "the app exited at start on the restored database"
  [ "$(curl -s -o /dev/null -w '%{http_code}' "$base/readyz")" = 200 ] && break
  sleep 0.25
done
[ "$(curl -s -o /dev/null -w '%{http_code}' "$base/readyz")" = 200 ] || fail "/readyz not 200 on the restored database"
grep -q 'migrations applied' "$work/app.log" && fail "the app applied migrations on the restored database"
post() { curl -s -X POST -H 'content-type: application/json' -H "authorization: Bearer ${3:-}" --data "$2" "$base$1"; }
get() { curl -s -H "authorization: Bearer ${2:-}" "$base$1"; }
# A new parent registers (SMS code from the log driver's outbox): the new user's id must come
# after the restored ones, so the sequences go on where the source's stood.
max_user=$(psql -d "$restored_db" -Atqc 'SELECT max(id) FROM users')
phone=0391234567
sent=$(post /api/send-otp "{\"phone\":\"$phone\",\"is_register\":1,\"password\":\"matkhau123\"}")
[ "$(jq -r .success <<<"$sent")" = true ] || fail "send-otp on the restored database: ${sent:0:300}"
otp=$(grep "$phone" "$work/data/sms-outbox.jsonl" | tail -n 1 | jq -r .message | grep -oE '\b[0-9]{6}\b' | head -n 1)
registered=$(post /api/register "{\"phone\":\"$phone\",\"password\":\"matkhau123\",\"otp\":\"$otp\",\"consent\":true}")
[ "$(jq -r .success <<<"$registered")" = true ] || fail "register on the restored database: ${registered:0:300}"
new_user=$(psql -d "$restored_db" -Atqc "SELECT id FROM users WHERE phone = '$phone'")
[ "$new_user" -gt "$max_user" ] || fail "the new user's id $new_user is not after the restored ones ($max_user)"
# The demo school's administrator reads the school report (results restored).
admin=$(post /api/login '{"phone":"0901000001","password":"truong123"}' | jq -r '.access_token // empty')
[ -n "$admin" ] || fail "the demo school administrator cannot log in on the restored database"
report=$(get /api/report-school "$admin")
[ "$(jq -r .success <<<"$report")" = true ] || fail "report-school on the restored database: ${report:0:300}"
say "ok   the app serves the restored copy: no migration to apply, a new parent registers (user id $new_user > $max_user), the school report answers"
say "PASS: backup and restore give back every row"
