/** A signed-in session as the auth routes answer it: the ID token and its life in seconds. */
export interface Grant {
  idToken: string;
  expiresIn: number;
}

export type SessionState = 'starting' | 'signedIn' | 'signedOut';

/** How the session reaches the auth routes (the typed client's calls; a fake in no test). */
export interface SessionCalls {
  /** POST /api/auth/refresh with the HttpOnly cookie: a new grant, or null when there is no session. */
  refresh(): Promise<Grant | null>;
  /** POST /api/auth/logout: the server forgets the refresh token and clears the cookie. */
  logout(): Promise<void>;
}

/** Refresh this long before the token ends, so a request never leaves with a token about to expire. */
const EARLY_MS = 60_000;

/**
 * The browser's half of the session: the short-lived ID token lives only in this object (memory),
 * the refresh token only in its HttpOnly cookie. Nothing is written to localStorage or
 * sessionStorage, so a reload asks the refresh route again.
 */
export class Session {
  state: SessionState = 'starting';
  private idToken: string | null = null;
  private expiresAt = 0;
  private refreshing: Promise<string | null> | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly calls: SessionCalls,
    private readonly now: () => number = Date.now,
  ) {}

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** First load: is there a refresh cookie? */
  async start(): Promise<void> {
    await this.refresh();
  }

  signIn(grant: Grant): void {
    this.idToken = grant.idToken;
    this.expiresAt = this.now() + grant.expiresIn * 1000;
    this.set('signedIn');
  }

  /** The token for the next request, refreshed first when it is about to end. */
  async token(): Promise<string | null> {
    if (this.idToken && this.now() < this.expiresAt - EARLY_MS) return this.idToken;
    if (this.state !== 'signedIn' && this.state !== 'starting') return null;
    return this.refresh();
  }

  async signOut(): Promise<void> {
    try {
      await this.calls.logout();
    } finally {
      this.end();
    }
  }

  /** The API refused the token (revoked, expired): back to the login screen. */
  end(): void {
    this.idToken = null;
    this.expiresAt = 0;
    this.set('signedOut');
  }

  private refresh(): Promise<string | null> {
    this.refreshing ??= this.calls
      .refresh()
      .then((grant) => {
        if (grant) this.signIn(grant);
        else this.end();
        return grant?.idToken ?? null;
      })
      .catch(() => {
        this.end();
        return null;
      })
      .finally(() => {
        this.refreshing = null;
      });
    return this.refreshing;
  }

  private set(state: SessionState) {
    this.state = state;
    for (const listener of this.listeners) listener();
  }
}
