/** Logs an analytics event; a stand-in for the analytics target of SPEC §9 (issue 15 replaces it). */
export function logAnalyticsEvent(name: string, properties: Record<string, unknown> = {}): void {
  console.debug('[analytics]', name, properties);
}
