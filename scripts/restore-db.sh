#!/usr/bin/env bash
# Restores a backup made by scripts/backup-db.sh (pg_dump custom format) into a database that is
# new or empty, in one transaction (all or nothing), then refreshes the planner's statistics
# (a restore has none, and the exam-day statements need them).
#
#   scripts/restore-db.sh [--create] [--role ROLE] [--force] DUMP_FILE DATABASE
#
#   DATABASE   a connection URL (postgres://user:password@host:5432/reading_contest_restored) or a
#              database name (host, user and password from PGHOST, PGUSER, ~/.pgpass...)
#   --create   create the database first when it does not exist (the user needs CREATEDB)
#   --role     the app's role (e.g. contest) when a superuser restores (sudo -u postgres ...): the
#              database is created owned by it and every object is restored as it, so that the
#              app can use them and apply later migrations. Default: the user who restores.
#   --force    restore into a database that already has tables: every object of the dump is
#              dropped and recreated (objects the dump does not have are left alone)
#
# Without --force a database with any table is refused (exit 3): restore into a new database,
# check it, then switch the app to it (docs/deployment.md, "Restore"). Connect straight to
# PostgreSQL, not through PgBouncer. Ownership and grants are not taken from the dump: objects
# belong to --role, or to the user who restores.
set -euo pipefail

create='' force='' role=''
args=()
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
die() { printf 'restore-db: %s\n' "$*" >&2; exit "${2:-1}"; }

while [ $# -gt 0 ]; do
  case "$1" in
    --create) create=1; shift ;;
    --force) force=1; shift ;;
    --role) role=${2:?--role needs a role name}; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    -*) die "unknown option $1 (see --help)" ;;
    *) args+=("$1"); shift ;;
  esac
done
[ "${#args[@]}" -eq 2 ] || { usage >&2; exit 1; }
dump=${args[0]} target=${args[1]}

for tool in pg_restore psql; do
  command -v "$tool" >/dev/null || die "$tool is not installed (Debian: apt-get install postgresql-client)"
done
[ -r "$dump" ] || die "cannot read $dump"
pg_restore --list "$dump" >/dev/null || die "$dump is not a readable pg_dump archive"

# The database's name, and a URL (or name) of the maintenance database on the same server.
if [[ "$target" =~ ^postgres(ql)?:// ]]; then
  name=$(printf '%s' "$target" | sed -E 's|^[^/]*//[^/]*/?||; s|[?].*$||')
  maintenance=$(printf '%s' "$target" | sed -E 's|^([^/]*//[^/]*)/?[^?]*|\1/postgres|')
else
  name=$target
  maintenance=postgres
fi
[[ "$name" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || die "use a plain database name (letters, digits, _), not '$name'"
[ -z "$role" ] || [[ "$role" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || die "use a plain role name, not '$role'"

exists=$(psql --dbname="$maintenance" -Atqc "SELECT 1 FROM pg_database WHERE datname = '$name'") ||
  die "cannot reach the server to look for database $name"
if [ -z "$exists" ]; then
  [ -n "$create" ] || die "database $name does not exist (add --create to create it)"
  psql --dbname="$maintenance" -qc "CREATE DATABASE \"$name\"${role:+ OWNER \"$role\"}" || die "cannot create database $name"
  printf 'restore-db: created database %s%s\n' "$name" "${role:+ owned by $role}"
fi

# Tables, views, sequences... outside PostgreSQL's own schemas: the database is not empty.
objects=$(psql --dbname="$target" -Atqc "
  SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
    AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\_toast%'")
options=(--single-transaction --exit-on-error --no-owner --no-privileges)
[ -z "$role" ] || options+=(--role="$role")
if [ "$objects" -gt 0 ]; then
  [ -n "$force" ] || die "database $name is not empty ($objects tables, views or sequences): refusing to overwrite it without --force" 3
  printf 'restore-db: --force: replacing the objects of the dump in %s (%s objects there now)\n' "$name" "$objects"
  options+=(--clean --if-exists)
fi

started=$(date +%s)
pg_restore --dbname="$target" "${options[@]}" "$dump" ||
  die "pg_restore failed; nothing was restored (one transaction)"
psql --dbname="$target" -qc 'ANALYZE' || die "restored, but ANALYZE failed: run it before serving"
printf 'restore-db: %s restored into %s (%ss)\n' "$dump" "$name" "$(($(date +%s) - started))"
