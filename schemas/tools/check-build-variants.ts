/**
 * `npm run check:variants` (after `npm run build` and `npm run build:china`): each build variant's built
 * client (schemas/app/build-variants.ts `outDir`) carries its own values and none of another variant's
 * (SPEC §9 'A China client build uses a different logo and analytics target; other builds use a standard
 * target'; issue 15 item 7): the page title is the variant's `appName`, a JavaScript file holds its
 * analytics endpoint and none holds another's, its logo is among the files (same bytes) and referenced by
 * the JavaScript, and no other variant's logo is. Deterministic (files only), so CI gates on it
 * (.ci/test-all.sh). Exits 1 naming each problem; 2 when a build is missing.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_VARIANTS, type BuildVariant, type BuildVariantName } from '../app/build-variants';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Every file under `dir` (relative paths with `/`), compressed copies and source maps left out. */
function filesOf(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !/\.(br|gz|map)$/.test(e.name))
    .map((e) =>
      join(e.parentPath, e.name)
        .slice(dir.length + 1)
        .split('\\')
        .join('/'),
    );
}

/**
 * The problems of the built client in `dir` for variant `name` (empty: it is that variant's build and holds
 * nothing of another). `variants` and `repoRoot` (where the logos are read) default to the app's.
 * @throws Error when `dir` has no index.html (not built).
 */
export function checkVariantBuild(
  dir: string,
  name: string,
  variants: Readonly<Record<string, BuildVariant>> = BUILD_VARIANTS,
  repoRoot: string = root,
): string[] {
  const own = variants[name];
  if (!own) throw new Error(`${name} is not a build variant`);
  if (!existsSync(join(dir, 'index.html')))
    throw new Error(`${dir}/index.html is missing: build ${name} first`);
  const others = Object.entries(variants).filter(([n]) => n !== name);
  const problems: string[] = [];
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  if (!html.includes(`<title>${own.appName}</title>`))
    problems.push(`index.html: title is not "${own.appName}"`);
  if (/%VITE_\w+%/.test(html)) problems.push('index.html: a %VITE_…% placeholder was not replaced');

  const files = filesOf(dir);
  const js = files
    .filter((f) => /\.m?js$/.test(f))
    .map((f) => ({ f, text: readFileSync(join(dir, f), 'utf8') }));
  if (!js.some(({ text }) => text.includes(own.analyticsEndpoint))) {
    problems.push(`no JavaScript file holds the analytics endpoint ${own.analyticsEndpoint}`);
  }
  const svgs = files.filter((f) => f.endsWith('.svg')).map((f) => ({ f, bytes: readFileSync(join(dir, f)) }));
  const ownLogo = readFileSync(join(repoRoot, own.logo));
  const logoFile = svgs.find(({ bytes }) => bytes.equals(ownLogo));
  if (!logoFile) problems.push(`the logo ${own.logo} is not among the files`);
  else if (!js.some(({ text }) => text.includes(basename(logoFile.f)))) {
    problems.push(`no JavaScript file refers to the logo ${logoFile.f}`);
  }
  for (const [otherName, other] of others) {
    if (other.analyticsEndpoint !== own.analyticsEndpoint) {
      for (const { f, text } of js) {
        if (text.includes(other.analyticsEndpoint)) {
          problems.push(`${f} holds the ${otherName} analytics endpoint ${other.analyticsEndpoint}`);
        }
      }
    }
    const otherLogo = readFileSync(join(repoRoot, other.logo));
    if (!otherLogo.equals(ownLogo)) {
      for (const { f } of svgs.filter(({ bytes }) => bytes.equals(otherLogo))) {
        problems.push(`${f} is the ${otherName} logo ${other.logo}`);
      }
    }
    if (other.appName !== own.appName && html.includes(`<title>${other.appName}</title>`)) {
      problems.push(`index.html has the ${otherName} title`);
    }
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let failed = false;
  for (const [name, variant] of Object.entries(BUILD_VARIANTS) as Array<[BuildVariantName, BuildVariant]>) {
    const dir = join(root, variant.outDir);
    let problems: string[];
    try {
      problems = checkVariantBuild(dir, name);
    } catch (error) {
      console.error(`build variants: ${(error as Error).message}`);
      process.exit(2);
    }
    for (const p of problems) console.error(`  FAIL ${name} (${variant.outDir}): ${p}`);
    if (problems.length === 0)
      console.log(`  ok   ${name} (${variant.outDir}): its title, analytics endpoint and logo only`);
    failed ||= problems.length > 0;
  }
  process.exit(failed ? 1 : 0);
}
