/**
 * `npm run screens:check`: loads every screen definition of bff/screens/ and composes it for every
 * fixture context (bff/screens/fixtures/contexts/*.json), exactly as the server does at startup; then
 * checks that Arabic has every message English has (SPEC §1: complete English and Arabic).
 * Exits 1 naming the file and JSON path of the first problem.
 */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadFixtureContexts, loadScreenCatalogue, ScreenDefinitionError } from './composer';
import { createTranslations, flattenMessages, translationAreas } from '../services/translations';

const dir = dirname(fileURLToPath(import.meta.url));
const translations = createTranslations();
let failed = false;

try {
  const catalogue = loadScreenCatalogue({ dir, translate: translations.translate });
  const contexts = Object.keys(loadFixtureContexts(dir));
  console.log(`screens ok: ${catalogue.ids().join(', ')} (checked against ${contexts.length} contexts)`);
} catch (err) {
  failed = true;
  console.error(err instanceof ScreenDefinitionError ? `invalid screen definition: ${err.message}` : err);
}

for (const area of translationAreas) {
  // messages() merges Arabic over English, so a key Arabic lacks shows as the English text.
  const en = flattenMessages(translations.messages('en-GB')[area]);
  const ar = flattenMessages(translations.messages('ar')[area]);
  const untranslated = Object.keys(en).filter(
    (k) => ar[k] === en[k] && /[A-Za-z]{3}/.test((en[k] ?? '').replace(/\{\{[^}]*\}\}/g, '')),
  );
  if (untranslated.length) {
    failed = true;
    console.error(`ar/${area}.json lacks: ${untranslated.join(', ')}`);
  }
}
process.exit(failed ? 1 : 0);
