/** SPEC §9: 'Web push starts after a 1 s delay' — the service worker is registered this long after start (ms). */
export const SERVICE_WORKER_DELAY_MS = 1000;
