/**
 * The service worker's source, served at /sw.js (src/pages/sw.js.ts) with scope "/" (its own
 * folder, so no Service-Worker-Allowed header is needed). It does nothing but notifications: no
 * fetch handler, no cache, so pages and their caching are as without it.
 *
 * - `push`: the JSON payload { title, body, url, tag } (push.server.ts) becomes a notification;
 *   the tag is per series, so a later push of a series replaces its notification.
 * - `notificationclick`: focuses an open tab already at the URL, or opens it.
 */
export const SERVICE_WORKER_SOURCE = `'use strict';
self.addEventListener('install', () => { self.skipWaiting(); });
self.addEventListener('activate', (event) => { event.waitUntil(self.clients.claim()); });
self.addEventListener('push', (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = {}; }
  const title = typeof data.title === 'string' && data.title ? data.title : self.location.hostname;
  const url = new URL(typeof data.url === 'string' ? data.url : '/', self.location.origin);
  const safe = url.origin === self.location.origin ? url.href : self.location.origin + '/';
  event.waitUntil(self.registration.showNotification(title, {
    body: typeof data.body === 'string' ? data.body : '',
    tag: typeof data.tag === 'string' ? data.tag : undefined,
    icon: '/favicon.svg',
    data: { url: safe },
  }));
});
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || self.location.origin + '/';
  event.waitUntil((async () => {
    const tabs = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    for (const tab of tabs) {
      if (tab.url === url && 'focus' in tab) return tab.focus();
    }
    return self.clients.openWindow(url);
  })());
});
`;
