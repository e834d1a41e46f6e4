#!/bin/sh
# `npm test`: everything a submission must pass (DESIGN "Quality gates"), in order, stopping at the first
# failure: Chromium and the test photographs present, types and lint (side by side), screen checks, unit/component/API tests (including the check that
# schemas/generated is fresh), client build (standard and China variants), Storybook build, end-to-end tests in Debian's Chromium.
set -eu
sh .ci/ensure-chromium.sh
sh .ci/ensure-test-photos.sh
# The type check and lint each use one core: side by side on CI's two, each one's output printed once both are
# done, and either failing stops the run.
out=$(mktemp -d)
npm run check-types >"$out/types" 2>&1 &
types=$!
npm run lint >"$out/lint" 2>&1 &
lint=$!
types_status=0
wait "$types" || types_status=$?
lint_status=0
wait "$lint" || lint_status=$?
echo '== type check'
cat "$out/types"
echo '== lint'
cat "$out/lint"
rm -rf "$out"
if [ "$types_status" -ne 0 ] || [ "$lint_status" -ne 0 ]; then exit 1; fi
echo '== screen definitions'
npm run screens:check
echo '== unit, component and API tests'
npm run test:unit
echo '== build'
npm run build
echo '== size budget (JavaScript per route, issue 13)'
npm run size
echo '== China build variant (dist/client-china) and what each variant holds (SPEC §9, issue 15 item 7)'
npm run build:china
npm run check:variants
echo '== built server: start from the PGlite image; cluster of two instances, PostgreSQL, Redis and nginx (issue 14; needs TEST_DATABASE_URL)'
sh .ci/ensure-nginx.sh
npm run test:cluster
echo '== storybook build'
npm run build-storybook
echo '== end-to-end tests'
npm run test:e2e
