#!/usr/bin/env bash
# A streaming replica of the local PostgreSQL (127.0.0.1:5432) on another port, for the read-replica suites and for
# trying DATABASE_READ_URL by hand (docs/architecture.md "Read replicas"). Needs root (it runs PostgreSQL as the
# `postgres` user) and PostgreSQL's own tools (pg_basebackup, pg_ctl).
#
#   scripts/local-replica.sh start   a fresh base backup with -R and a slot, started; prints its URL (one running and
#                                    streaming is kept)
#   scripts/local-replica.sh stop    stop it (fast); its slot keeps the WAL it has not replayed meanwhile
#   scripts/local-replica.sh remove  stop it, drop its slot (the primary keeps no WAL for it) and delete its files
#   scripts/local-replica.sh url     its URL
#
# REPLICA_PORT (5433) and REPLICA_DIR (/var/lib/postgresql/seatlink-replica) place it; PRIMARY_PORT (5432) names the
# primary. The primary must allow replication from 127.0.0.1: a trust line is added to its pg_hba.conf if none does.
set -euo pipefail

PORT="${REPLICA_PORT:-5433}"
PRIMARY_PORT="${PRIMARY_PORT:-5432}"
DIR="${REPLICA_DIR:-/var/lib/postgresql/seatlink-replica}"
BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
URL="postgres://postgres@127.0.0.1:${PORT}/postgres"
SLOT=seatlink_replica
primary() { psql -h 127.0.0.1 -p "$PRIMARY_PORT" -U postgres -XAtqc "$1"; }
as_postgres() { su postgres -s /bin/sh -c "$1"; }

# Whether the replica on PORT receives the primary's WAL now.
streaming() {
  [ "$(psql -h 127.0.0.1 -p "$PORT" -U postgres -XAtqc \
    "select count(*) from pg_stat_wal_receiver where status = 'streaming'" 2>/dev/null)" = 1 ]
}

start() {
  if pg_isready -q -h 127.0.0.1 -p "$PORT" && streaming; then echo "$URL"; return; fi
  # Made afresh otherwise: one stopped, or left behind, may need WAL the primary no longer keeps.
  stop
  (
    local hba
    hba="$(primary 'show hba_file')"
    if ! grep -Eq '^host[[:space:]]+replication[[:space:]]+all[[:space:]]+127\.0\.0\.1/32[[:space:]]+trust' "$hba"; then
      echo 'host replication all 127.0.0.1/32 trust' >>"$hba"
      primary 'select pg_reload_conf()' >/dev/null
    fi
    rm -rf "$DIR"
    install -d -o postgres -g postgres -m 700 "$DIR"
    # Its own replication slot: the primary keeps the WAL it has not replayed, however far behind it falls.
    primary "select pg_drop_replication_slot(slot_name) from pg_replication_slots where slot_name = '$SLOT'" >/dev/null
    as_postgres "$BIN/pg_basebackup -h 127.0.0.1 -p $PRIMARY_PORT -U postgres -D $DIR -R -X stream -C -S $SLOT -c fast"
    # A standby needs at least the primary's figures of these.
    {
      echo "port = $PORT"
      echo "listen_addresses = '127.0.0.1'"
      echo "unix_socket_directories = '/tmp'"
      echo "hot_standby = on"
      echo "hot_standby_feedback = on"
      for setting in max_connections max_worker_processes max_wal_senders max_prepared_transactions \
        max_locks_per_transaction; do
        echo "$setting = $(primary "show $setting")"
      done
    } >"$DIR/postgresql.conf"
    printf 'local all all trust\nhost all all 127.0.0.1/32 trust\n' >"$DIR/pg_hba.conf"
    chown postgres:postgres "$DIR/postgresql.conf" "$DIR/pg_hba.conf"
  )
  as_postgres "$BIN/pg_ctl -D $DIR -l $DIR/replica.log -w -t 60 start" >/dev/null
  echo "$URL"
}

stop() {
  if [ -f "$DIR/postmaster.pid" ]; then as_postgres "$BIN/pg_ctl -D $DIR -m fast -w stop" >/dev/null || true; fi
}

remove() {
  stop
  primary "select pg_drop_replication_slot(slot_name) from pg_replication_slots where slot_name = '$SLOT'" >/dev/null
  rm -rf "$DIR"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  remove) remove ;;
  url) echo "$URL" ;;
  *)
    echo "usage: $0 start|stop|remove|url" >&2
    exit 2
    ;;
esac
