import { type AnchorHTMLAttributes, type MouseEvent, useSyncExternalStore } from 'react';

/** Every dashboard address starts here (S3 and the local runtime answer index.html for all of them). */
export const BASE = '/dashboard';

const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  window.addEventListener('popstate', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('popstate', listener);
  };
};

/** The path inside the dashboard ('/' for /dashboard) and its query. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const href = useSyncExternalStore(subscribe, () => location.pathname + location.search);
  const url = new URL(href, location.origin);
  const path = url.pathname.slice(BASE.length).replace(/\/+$/, '') || '/';
  return { path, query: url.searchParams };
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  const href = BASE + (to === '/' ? '' : to);
  if (options.replace) history.replaceState(null, '', href);
  else history.pushState(null, '', href);
  window.scrollTo(0, 0);
  for (const listener of listeners) listener();
}

/** `pattern` like '/desenvolvedores/webhooks/:id': the parameters when `path` matches it. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(':')) params[want[i].slice(1)] = decodeURIComponent(got[i]);
    else if (want[i] !== got[i]) return null;
  }
  return params;
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: string };

/** A link that moves inside the app without reloading it (a new tab still works: it is a real href). */
export function Link({ to, onClick, ...rest }: LinkProps) {
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)
      return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={BASE + (to === '/' ? '' : to)} onClick={follow} {...rest} />;
}
