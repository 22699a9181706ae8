#!/usr/bin/env bash
# Backs up the contest's PostgreSQL database with pg_dump (custom format: compressed, restorable
# table by table with pg_restore), checks that the file can be read back, then deletes the
# backups older than the retention. Exits non-zero when anything fails; a failed run leaves no
# half-written file and deletes nothing.
#
#   scripts/backup-db.sh [--dir DIR] [--keep-days N] [--env-file FILE] [DATABASE]
#
#   DATABASE     a connection URL (postgres://user:password@host:5432/reading_contest) or a
#                database name (host, user and password then come from PGHOST, PGUSER, ~/.pgpass...).
#                Default: BACKUP_DATABASE_URL, else DATABASE_URL, from the environment or from
#                --env-file (read as plain KEY=value lines, never run as a shell script).
#   --dir        where the backups go (default /var/backups/reading-contest)
#   --keep-days  delete this script's backups older than N days after a good one (default 14;
#                0 keeps everything)
#
# Connect straight to PostgreSQL (port 5432), not through PgBouncer in transaction pooling:
# pg_dump sets session options before its transaction. pg_dump must be of the server's major
# version or newer. Files: <dir>/<database>-<UTC time>.dump, mode 600.
set -euo pipefail

dir=/var/backups/reading-contest
keep_days=14
env_file=''
target=''

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
die() { printf 'backup-db: %s\n' "$*" >&2; exit 1; }

while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir=${2:?--dir needs a folder}; shift 2 ;;
    --keep-days) keep_days=${2:?--keep-days needs a number}; shift 2 ;;
    --env-file) env_file=${2:?--env-file needs a file}; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    -*) die "unknown option $1 (see --help)" ;;
    *) [ -z "$target" ] || die "one database only"; target=$1; shift ;;
  esac
done
[[ "$keep_days" =~ ^[0-9]+$ ]] || die "--keep-days must be a whole number of days"

# KEY's value in an environment file (systemd's EnvironmentFile syntax), quotes removed.
value_in_file() {
  sed -n "s/^[[:space:]]*$1=//p" "$2" | tail -n 1 | sed -E 's/^"(.*)"$/\1/; s/^'"'"'(.*)'"'"'$/\1/'
}
if [ -z "$target" ] && [ -n "$env_file" ]; then
  [ -r "$env_file" ] || die "cannot read $env_file"
  target=$(value_in_file BACKUP_DATABASE_URL "$env_file")
  [ -n "$target" ] || target=$(value_in_file DATABASE_URL "$env_file")
fi
[ -n "$target" ] || target=${BACKUP_DATABASE_URL:-${DATABASE_URL:-}}
[ -n "$target" ] || die "no database: give a URL or a name, or set BACKUP_DATABASE_URL / DATABASE_URL (see --help)"

command -v pg_dump >/dev/null || die "pg_dump is not installed (Debian: apt-get install postgresql-client)"

# The database's name, for the file name: the URL's path, or the name itself.
if [[ "$target" =~ ^postgres(ql)?:// ]]; then
  name=$(printf '%s' "$target" | sed -E 's|^[^/]*//[^/]*/?||; s|[?].*$||')
else
  name=$target
fi
name=$(printf '%s' "${name:-postgres}" | tr -c 'A-Za-z0-9_.-' '_')

umask 077
mkdir -p "$dir"
# One backup at a time in a folder (a slow run must not overlap the next cron run).
exec 9>"$dir/.backup.lock"
flock -n 9 || die "another backup is running in $dir"

stamp=$(date -u +%Y%m%dT%H%M%SZ)
file="$dir/$name-$stamp.dump"
partial="$file.partial"
trap 'rm -f "$partial"' EXIT

started=$(date +%s)
pg_dump --format=custom --compress=6 --file="$partial" --dbname="$target" || die "pg_dump failed; no backup written"
# A truncated or corrupt archive fails here rather than on the day it is needed.
pg_restore --list "$partial" >/dev/null || die "the dump cannot be read back; no backup written"
mv "$partial" "$file"
size=$(du -h "$file" | cut -f1)
printf 'backup-db: %s (%s, %ss)\n' "$file" "$size" "$(($(date +%s) - started))"

# Retention: only files this script names, for this database, older than keep_days.
if [ "$keep_days" -gt 0 ]; then
  find "$dir" -maxdepth 1 -type f -name "$name-????????T??????Z.dump" -mtime +"$((keep_days - 1))" ! -path "$file" -print -delete |
    sed 's/^/backup-db: deleted old /'
fi
