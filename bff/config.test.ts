import { describe, expect, it } from 'vitest';
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
});
