#!/bin/sh
# Lets streaming replicas on the compose network (postgres-replica in docker-compose.yml; README "Read replicas")
# connect to the primary for replication. The image's pg_hba.conf lets password logins in from anywhere
# (`host all all all scram-sha-256`), but the database `all` does not match replication connections.
#
# The image runs the scripts in /docker-entrypoint-initdb.d/ only when it initialises an empty data directory, so this
# runs once, on the first start of a new postgres volume. For a volume made before this script, add the line by hand
# and reload:
#   docker compose exec postgres sh -c 'echo "host replication all all scram-sha-256" >>"$PGDATA/pg_hba.conf"'
#   docker compose exec postgres sh -c 'psql -U "$POSTGRES_USER" -d "$POSTGRES_DB" -c "select pg_reload_conf()"'
echo 'host replication all all scram-sha-256' >>"$PGDATA/pg_hba.conf"
