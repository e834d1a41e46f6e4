import { vi, type Mock } from 'vitest';
import type { ShellHost } from '../engine/host';

/** A {@link ShellHost} whose every method (the optional `logEvent` too) is a Vitest mock. */
export type FakeShellHost = { [K in keyof ShellHost]-?: Mock<NonNullable<ShellHost[K]>> };

/**
 * The shell as the engine's tests give it (tests only): every method a mock that does nothing — `signOut`
 * resolves true, `setLanguage` resolves — with the methods of `over` in their place.
 */
export function fakeShellHost(over: Partial<FakeShellHost> = {}): FakeShellHost {
  return {
    navigate: vi.fn(),
    goBack: vi.fn(),
    toast: vi.fn(),
    signOut: vi.fn(async () => true),
    sessionStarted: vi.fn(),
    setLanguage: vi.fn(async () => undefined),
    setFooterHidden: vi.fn(),
    logEvent: vi.fn(),
    ...over,
  };
}
