#!/bin/sh
# Real photographs for the image tests: Debian's mate-backgrounds puts camera JPEGs (1280×1024 up to
# 5640×3172, one over 10 MB) and PNGs under /usr/share/backgrounds/mate/. The ID-card-like images of the
# text-recognition tests are drawn with DejaVu fonts (Debian's fonts-dejavu-core).
set -eu
DIR="${TEST_PHOTOS_DIR:-/usr/share/backgrounds/mate}"
FONT=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
MISSING=""
[ -d "$DIR" ] || MISSING="$MISSING mate-backgrounds"
[ -f "$FONT" ] || MISSING="$MISSING fonts-dejavu-core"
if [ -z "$MISSING" ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Test inputs are missing: installing Debian's$MISSING"
  # shellcheck disable=SC2086
  (apt-get install -y -qq $MISSING >/dev/null 2>&1) ||
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $MISSING >/dev/null)
  exit 0
fi
echo "Test inputs are missing. Install Debian's packages as root: apt-get install -y$MISSING" >&2
exit 1
