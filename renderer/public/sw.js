/*
 * The app's service worker (issue 15 item 5, SPEC §9 web push), registered 1 s after start with scope
 * /propertyOnboard/ (renderer/engine/service-worker.ts). It only shows reminders and opens the checklist on
 * a tap; it has no fetch handler, so every request goes to the network as without it.
 *
 * A push's data is the JSON of bff/services/reminders.ts ReminderPayload: { title, body, lang, tag, url }.
 */
const APP_PATH = '/propertyOnboard/';

/** The page a notification opens: its `url` when it is an app page on this origin, else the app's start. */
function targetOf(data) {
  try {
    const url = new URL(data && typeof data.url === 'string' ? data.url : APP_PATH, self.location.origin);
    if (url.origin === self.location.origin && url.pathname.startsWith(APP_PATH)) return url.href;
  } catch {
    // fall through
  }
  return new URL(APP_PATH, self.location.origin).href;
}

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('push', (event) => {
  let data;
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const title = typeof data.title === 'string' ? data.title : '';
  if (!title) return;
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof data.body === 'string' ? data.body : '',
      tag: typeof data.tag === 'string' ? data.tag : undefined,
      lang: typeof data.lang === 'string' ? data.lang : undefined,
      icon: `${APP_PATH}favicon.svg`,
      data: { url: targetOf(data) },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = targetOf(event.notification.data);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((w) => new URL(w.url).pathname.startsWith(APP_PATH));
      if (open) {
        const focused = await open.focus();
        return (focused ?? open).navigate(target);
      }
      return self.clients.openWindow(target);
    })(),
  );
});
