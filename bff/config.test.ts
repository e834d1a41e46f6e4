import { describe, expect, it } from 'vitest';
import { dirname, join } from 'node:path';
import { clientDirOf, defaultClientDir } from './app';
import { assertConfigUsable, loadConfig } from './config';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      nodeEnv: 'development',
      dataDir: './data',
      databaseUrl: null,
      redisUrl: null,
      logLevel: 'info',
      publicOrigin: null,
      defaultCountry: 'IN',
      defaultLocale: 'en-GB',
      messageTransport: 'dev',
      otpLength: 6,
      otpTtlMs: 300000,
      otpMaxAttempts: 5,
      otpMaxPerHour: 5,
      otpResendCooldownMs: 30000,
      sessionIdleMs: 7 * 24 * 3600 * 1000,
      sessionAbsoluteMs: 30 * 24 * 3600 * 1000,
      isDowntimeActive: false,
      oyo360ChatEnabled: false,
      isSelfOnboardEnabled: true,
      enableOyo360L1Revamp: false,
      selfOnboardDisabledCountries: [],
      rateLimitMax: 300,
      imagesMinTotal: null,
      imagesDeleteWindowMs: 24 * 3600 * 1000,
    });
    expect(c.featureFlags).toEqual({
      enable_location_permission: true,
      location_data_config: { throttleDelay: 300000, gaEventName: 'location_permission' },
    });
    expect(c.otpSecret.length).toBeGreaterThanOrEqual(32);
  });

  it('reads and coerces values from the given environment only', () => {
    const c = loadConfig({
      PORT: '8080',
      IS_DOWNTIME_ACTIVE: 'true',
      SELF_ONBOARD_DISABLED_COUNTRIES: 'id, br,xx1',
      DATABASE_URL: 'postgres://x@y/z',
      PUBLIC_ORIGIN: 'https://a.example/',
      RATE_LIMIT_MAX: '0',
      IMAGES_MIN_TOTAL: '8',
      IMAGES_DELETE_WINDOW_MS: '60000',
    });
    expect(c.port).toBe(8080);
    expect(c.isDowntimeActive).toBe(true);
    expect(c.selfOnboardDisabledCountries).toEqual(['ID', 'BR']);
    expect(c.databaseUrl).toBe('postgres://x@y/z');
    expect(c.publicOrigin).toBe('https://a.example');
    expect(c.rateLimitMax).toBe(0);
    expect(c.imagesMinTotal).toBe(8);
    expect(c.imagesDeleteWindowMs).toBe(60000);
  });

  it('the partner site defaults to the https site the app is served from (issue 12 item 11)', () => {
    expect(loadConfig({ PUBLIC_ORIGIN: 'https://partner.example/' }).partnerSiteUrl).toBe(
      'https://partner.example/',
    );
    expect(
      loadConfig({ PUBLIC_ORIGIN: 'https://partner.example', PARTNER_SITE_URL: 'https://os.example/' })
        .partnerSiteUrl,
    ).toBe('https://os.example/');
    expect(loadConfig({ PUBLIC_ORIGIN: 'http://192.168.1.5:3000' }).partnerSiteUrl).toBeNull();
    expect(loadConfig({}).partnerSiteUrl).toBeNull();
  });

  it('serves the build variant named by BUILD_VARIANT, the standard one by default (SPEC §9, issue 15 item 7)', () => {
    expect(loadConfig({}).buildVariant).toBe('standard');
    expect(loadConfig({ BUILD_VARIANT: 'china' }).buildVariant).toBe('china');
    expect(() => loadConfig({ BUILD_VARIANT: 'cn' })).toThrow(/BUILD_VARIANT/);
    expect(clientDirOf('standard')).toBe(defaultClientDir);
    expect(clientDirOf('china')).toBe(join(dirname(defaultClientDir), 'client-china'));
  });

  it('throws on a malformed value', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow();
    expect(() => loadConfig({ IMAGES_MIN_TOTAL: 'six' })).toThrow();
    expect(() => loadConfig({ FEATURE_FLAGS: '[1]' })).toThrow(/FEATURE_FLAGS/);
    expect(() => loadConfig({ MESSAGE_TRANSPORT: 'carrier-pigeon' })).toThrow();
  });

  it('refuses the dev transport in production', () => {
    expect(() => assertConfigUsable(loadConfig({ NODE_ENV: 'production' }))).toThrow(/MESSAGE_TRANSPORT=dev/);
    expect(() =>
      assertConfigUsable(
        loadConfig({
          NODE_ENV: 'production',
          MESSAGE_TRANSPORT: 'webhook',
          MESSAGE_WEBHOOK_URL: 'https://sms.example/send',
        }),
      ),
    ).not.toThrow();
  });

  it('reads SMTP_URL and MAIL_FROM; SMTP_URL needs MAIL_FROM and an smtp(s) URL', () => {
    const none = loadConfig({});
    expect(none.smtpUrl).toBeNull();
    expect(none.mailFrom).toBeNull();
    const smtp = loadConfig({
      SMTP_URL: 'smtp://user:pass@mail.example:587',
      MAIL_FROM: ' Property onboarding <no-reply@example.com> ',
    });
    expect(smtp.smtpUrl).toBe('smtp://user:pass@mail.example:587');
    expect(smtp.mailFrom).toBe('Property onboarding <no-reply@example.com>');
    expect(() => assertConfigUsable(smtp)).not.toThrow();
    expect(() => assertConfigUsable(loadConfig({ SMTP_URL: 'smtps://mail.example' }))).toThrow(/MAIL_FROM/);
    expect(() => loadConfig({ SMTP_URL: 'http://mail.example' })).toThrow();
  });

  it('reads the SSO settings: off by default, all three or none, asymmetric algorithms only', () => {
    expect(loadConfig({}).sso).toBeNull();
    const base = {
      SSO_JWKS_URL: 'https://main.example/.well-known/jwks.json',
      SSO_ISSUER: 'https://main.example',
      SSO_AUDIENCE: 'property-onboarding',
    };
    expect(loadConfig(base).sso).toEqual({
      jwksUrl: 'https://main.example/.well-known/jwks.json',
      issuer: 'https://main.example',
      audience: 'property-onboarding',
      algorithms: ['RS256', 'PS256', 'ES256', 'EdDSA'],
      maxTokenLifetimeS: 300,
      clockToleranceS: 30,
      jwksTimeoutMs: 5000,
      signOutUrl: null,
    });
    expect(() => loadConfig({ SSO_JWKS_URL: base.SSO_JWKS_URL })).toThrow(/SSO_ISSUER/);
    expect(() => loadConfig({ ...base, SSO_ALGORITHMS: 'RS256,none' })).toThrow(/refused: none/);
    expect(() => loadConfig({ ...base, SSO_ALGORITHMS: 'HS256' })).toThrow(/refused: HS256/);
    expect(() => loadConfig({ ...base, SSO_JWKS_URL: 'file:///etc/keys' })).toThrow();
    expect(() => loadConfig({ ...base, SSO_SIGN_OUT_URL: 'javascript:alert(1)' })).toThrow(
      /SSO_SIGN_OUT_URL/,
    );
    expect(() => loadConfig({ ...base, SSO_SIGN_OUT_URL: '//evil.example' })).toThrow(/SSO_SIGN_OUT_URL/);
    expect(loadConfig({ ...base, SSO_SIGN_OUT_URL: '/propertyOnboard/sign_up' }).sso?.signOutUrl).toBe(
      '/propertyOnboard/sign_up',
    );
    const prod = {
      NODE_ENV: 'production',
      MESSAGE_TRANSPORT: 'webhook',
      MESSAGE_WEBHOOK_URL: 'https://sms.example',
    };
    expect(() => assertConfigUsable(loadConfig({ ...prod, ...base }))).not.toThrow();
    expect(() =>
      assertConfigUsable(loadConfig({ ...prod, ...base, SSO_JWKS_URL: 'http://main.example/jwks.json' })),
    ).toThrow(/https in production/);
    expect(() =>
      assertConfigUsable(loadConfig({ ...prod, ...base, SSO_SIGN_OUT_URL: 'http://main.example/home' })),
    ).toThrow(/https in production/);
  });
});
