#!/bin/sh
# Real photographs for the image tests: Debian's mate-backgrounds puts camera JPEGs (1280×1024 up to
# 5640×3172, one over 10 MB) and PNGs under /usr/share/backgrounds/mate/.
set -eu
DIR="${TEST_PHOTOS_DIR:-/usr/share/backgrounds/mate}"
if [ -d "$DIR" ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Test photographs are missing: installing Debian's mate-backgrounds package"
  (apt-get install -y -qq mate-backgrounds >/dev/null 2>&1) ||
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mate-backgrounds >/dev/null)
  exit 0
fi
echo "Test photographs are missing at $DIR. Install Debian's package as root: apt-get install -y mate-backgrounds" >&2
exit 1
