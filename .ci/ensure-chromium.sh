#!/bin/sh
# Playwright drives Debian's Chromium (/usr/bin/chromium); browsers cannot be downloaded here.
set -eu
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Chromium is missing: installing Debian's chromium package"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  exit 0
fi
echo "Chromium is missing at $CHROMIUM. Install Debian's package as root: apt-get install -y chromium" >&2
echo "(or set CHROMIUM_PATH to a Chromium binary). Browsers are never downloaded by Playwright here." >&2
exit 1
