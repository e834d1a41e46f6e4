#!/bin/sh
# `npm test`: everything a submission must pass (DESIGN "Quality gates"), in order, stopping at the first
# failure: Chromium and the test photographs present, types, lint, screen checks, unit/component/API tests (including the check that
# schemas/generated is fresh), client build (standard and China variants), Storybook build, end-to-end tests in Debian's Chromium.
set -eu
sh .ci/ensure-chromium.sh
sh .ci/ensure-test-photos.sh
echo '== type check'
npm run check-types
echo '== lint'
npm run lint
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
