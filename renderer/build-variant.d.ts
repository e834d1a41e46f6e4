/**
 * What vite.config.ts (and vitest.config.ts) define for the build variant (schemas/app/build-variants.ts
 * `variantDefine`; SPEC §9, issue 15 item 7).
 */
interface ImportMetaEnv {
  /** The variant's name: 'standard' or 'china'. */
  readonly VITE_BUILD_VARIANT: 'standard' | 'china';
  /** The app's name in the page title. */
  readonly VITE_APP_NAME: string;
  /** Where the browser sends analytics events (a same-origin path). */
  readonly VITE_ANALYTICS_ENDPOINT: string;
}
