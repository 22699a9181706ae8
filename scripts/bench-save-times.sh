#!/usr/bin/env bash
# The cost of exams.answer_times on the autosave (decision 027): pgbench runs the save's UPDATE on a
# scratch table shaped like exams (fillfactor 70, 20 answers), with and without the answer_times
# term, alternately, and prints each run's latency and HOT share. Needs pgbench and psql.
# Usage: scripts/bench-save-times.sh [postgres://postgres@127.0.0.1:5432] [seconds per run] [pairs of runs]
set -euo pipefail
server=${1:-postgres://postgres@127.0.0.1:5432}
seconds=${2:-12}
pairs=${3:-3}
db=bench_save_times_$$
dir=$(mktemp -d)
trap 'psql -qX "$server/postgres" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null; rm -rf "$dir"' EXIT

answers=$(printf '"%d":%d,' $(for q in $(seq 1000 1019); do echo "$q $((q * 10 + 2))"; done))
marks=$(printf '"%d:%d":1790000000,' $(for q in $(seq 1000 1019); do echo "$q $((q * 10 + 2))"; done))
printf '%s\n' '\set i random(1, 20000)' \
  "UPDATE t SET answers = answers || '{${answers%,}}'::jsonb, save_seq = :i, saved_at = now() WHERE id = :i;" >"$dir/without.sql"
printf '%s\n' '\set i random(1, 20000)' \
  "UPDATE t SET answers = answers || '{${answers%,}}'::jsonb, save_seq = :i, saved_at = now(), answer_times = ('{${marks%,}}'::jsonb || answer_times) || jsonb_build_object('s', 42) WHERE id = :i;" >"$dir/with.sql"

psql -qX "$server/postgres" -c "CREATE DATABASE $db"
psql -qX "$server/$db" <<'SQL'
CREATE TABLE t (id integer PRIMARY KEY, answers jsonb NOT NULL DEFAULT '{}', answer_key jsonb NOT NULL, answer_options bigint[] NOT NULL,
  saved_at timestamptz, save_seq bigint, answer_times jsonb NOT NULL DEFAULT '{}') WITH (fillfactor = 70);
INSERT INTO t (id, answer_key, answer_options)
SELECT i, (SELECT jsonb_object_agg(q::text, q * 10 + 1) FROM generate_series(1000, 1019) q),
       (SELECT array_agg(q::bigint * 4294967296 + q * 10 + a) FROM generate_series(1000, 1019) q, generate_series(1, 4) a)
FROM generate_series(1, 20000) i;
VACUUM ANALYZE t;
SQL
for _ in $(seq "$pairs"); do
  for variant in without with; do
    psql -qtAX "$server/$db" -c "SELECT pg_stat_reset_single_table_counters('t'::regclass)" >/dev/null
    latency=$(pgbench -n -c 1 -T "$seconds" -f "$dir/$variant.sql" "$server/$db" 2>&1 | grep 'latency average')
    sleep 1
    hot=$(psql -qtAX "$server/$db" -c "SELECT round(100.0 * n_tup_hot_upd / greatest(n_tup_upd, 1), 1) FROM pg_stat_user_tables WHERE relname = 't'")
    echo "$variant answer_times: $latency, HOT updates $hot %"
  done
done
