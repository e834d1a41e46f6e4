#!/bin/sh
# `npm test`: everything a submission must pass (DESIGN "Quality gates"), in order, stopping at the first
# failure: Chromium present, generated code fresh, types, lint, unit/component/API tests, screen checks,
# client build, end-to-end tests in Debian's Chromium.
set -eu
sh .ci/ensure-chromium.sh
echo '== generated code is fresh'
npx tsx schemas/tools/gen-types.ts --check
npx tsx schemas/tools/gen-validators.ts --check
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
echo '== end-to-end tests'
npm run test:e2e
