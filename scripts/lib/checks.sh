# Shared by the operator checks (scripts/check-*.sh), sourced after `cd` to the repository: the
# machine's PostgreSQL (PGHOST/PGPORT/PGUSER, default 127.0.0.1/5432/postgres, no password) and
# the words they print.
export PGHOST="${PGHOST:-127.0.0.1}" PGPORT="${PGPORT:-5432}" PGUSER="${PGUSER:-postgres}"
unset PGDATABASE
# The project's own Node 24 (the npm package node, decision 032) first, as in an npm script, when
# a check is run directly (scripts/check-*.sh) rather than through npm run.
export PATH="$PWD/node_modules/.bin:$PATH"

say() { printf '%s\n' "$*"; }
fail() { say "FAIL: $*" >&2; exit 1; }

# need CHECK HINT TOOL...: exit 2 (not a failed check) when a tool is missing.
need() {
  local check=$1 hint=$2 tool
  shift 2
  for tool in "$@"; do
    command -v "$tool" >/dev/null || { say "$check: '$tool' is not installed${hint:+ ($hint)}" >&2; exit 2; }
  done
}

# The machine's PostgreSQL lets the user in.
need_postgres() {
  psql -d postgres -Atqc 'SELECT 1' >/dev/null || fail "PostgreSQL at $PGHOST:$PGPORT does not let $PGUSER in"
}

# The server as production runs it (decision 022): build_server compiles the current source into
# dist/server (about a second); the checks then start `node dist/server/main.mjs`.
build_server() {
  node scripts/build-server.mjs || fail "the server did not build (node scripts/build-server.mjs)"
}
