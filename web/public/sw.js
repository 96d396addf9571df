/*
 * The service worker (registered by web/src/lib/push.ts): shows the notifications the server pushes
 * (server/notify/push.ts; the browser has already decrypted them) and opens their page when one is clicked.
 * A payload is { kind, title, body, url, tag }: notifications with the same tag replace each other.
 */
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

/** A path on this site, or the home page: a notification never opens another site. */
function pathOnThisSite(url) {
  return typeof url === 'string' && url.startsWith('/') && !url.startsWith('//') ? url : '/';
}

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : '' };
  }
  const title = typeof data.title === 'string' && data.title ? data.title : 'Diadochi';
  const options = {
    body: typeof data.body === 'string' ? data.body : '',
    icon: '/favicon.svg',
    data: { url: pathOnThisSite(data.url), kind: data.kind },
  };
  if (typeof data.tag === 'string' && data.tag) {
    options.tag = data.tag;
    // A newer notice of the same thing (a later phase of the game) alerts again rather than replacing the old one silently.
    options.renotify = true;
  }
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(pathOnThisSite(event.notification.data?.url), self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      // A tab already on that page is brought forward; otherwise one of ours goes there, or a new one opens.
      const there = windows.find((client) => client.url === target);
      if (there) return there.focus();
      const ours = windows.find((client) => new URL(client.url).origin === self.location.origin && 'navigate' in client);
      if (ours) {
        const moved = await ours.navigate(target).catch(() => null);
        if (moved) return moved.focus();
      }
      return self.clients.openWindow(target);
    })(),
  );
});
