#!/bin/sh
# The cluster tests (bench/cluster, issue 14) put Debian's nginx in front of two instances; redis-server runs
# the cluster's own Redis; openssl makes the HTTPS front's throwaway certificate (bench/tls-proxy.ts). Installed from Debian when missing, without starting the packaged services.
set -eu
NGINX="${NGINX_PATH:-/usr/sbin/nginx}"
REDIS="${REDIS_SERVER_PATH:-/usr/bin/redis-server}"
MISSING=""
[ -x "$NGINX" ] || MISSING="$MISSING nginx-light"
[ -x "$REDIS" ] || MISSING="$MISSING redis-server"
command -v openssl >/dev/null || MISSING="$MISSING openssl"
if [ -z "$MISSING" ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Missing for the cluster tests:$MISSING; installing Debian's packages"
  # RUNLEVEL=1: the packages' scripts do not start nginx or Redis as services.
  # shellcheck disable=SC2086
  (RUNLEVEL=1 DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $MISSING >/dev/null 2>&1) ||
    (apt-get update -qq && RUNLEVEL=1 DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $MISSING >/dev/null)
  exit 0
fi
echo "Missing for the cluster tests:$MISSING. Install Debian's packages as root: apt-get install -y$MISSING" >&2
exit 1
