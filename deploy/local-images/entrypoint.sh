#!/bin/sh
# Entry point of the local stand-ins for the public postgres and redis images (built by
# scripts/container-test.sh where no registry is reachable): started as root, it gives the data
# directory to the service's user and runs the command as that user, as the public images do.
set -eu
case "$1" in
  redis-server)
    mkdir -p /data && chown -R redis:redis /data
    exec setpriv --reuid=redis --regid=redis --init-groups "$@" ;;
  postgres)
    : "${PGDATA:=/var/lib/postgresql/data}" "${POSTGRES_USER:=postgres}" "${POSTGRES_DB:=$POSTGRES_USER}"
    mkdir -p "$PGDATA" /run/postgresql && chown -R postgres:postgres "$PGDATA" /run/postgresql && chmod 700 "$PGDATA"
    as_pg() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }
    if [ ! -s "$PGDATA/PG_VERSION" ]; then
      pwfile="$(mktemp)" && printf '%s\n' "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}" >"$pwfile" && chown postgres "$pwfile"
      as_pg initdb -D "$PGDATA" -U "$POSTGRES_USER" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 >/dev/null
      rm -f "$pwfile"
      echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
      as_pg pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
      [ "$POSTGRES_DB" = postgres ] || as_pg psql -q -U "$POSTGRES_USER" -d postgres -c "CREATE DATABASE \"$POSTGRES_DB\""
      as_pg pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
      echo "entrypoint: initialized $PGDATA (database $POSTGRES_DB, user $POSTGRES_USER)"
    fi
    shift
    exec setpriv --reuid=postgres --regid=postgres --init-groups postgres -D "$PGDATA" -c listen_addresses='*' "$@" ;;
  *) exec "$@" ;;
esac
