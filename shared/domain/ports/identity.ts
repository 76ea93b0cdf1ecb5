/**
 * Who signs in to the dashboard: Cognito on AWS, the local runtime's own store on `npm start`. Both
 * answer the same questions with the same refusals, so the routes (and their answers, which never
 * tell whether an e-mail is registered) are the same on both.
 */

/** A signed-in session: the ID token the browser keeps in memory, the refresh token it keeps in a cookie. */
export interface SignedIn {
  idToken: string;
  /** Seconds the ID token is valid. */
  expiresIn: number;
  refreshToken: string;
}

/** A password that was right for an account with a second factor: the code is still due. */
export interface TotpChallenge {
  /** Opaque, short-lived: the code answers this very sign-in. */
  session: string;
}

export type SignInOutcome = { signedIn: SignedIn } | { totp: TotpChallenge };

/** A fresh ID token from a refresh token, with the seller it opens. */
export interface Refreshed {
  idToken: string;
  expiresIn: number;
  sellerId: number;
}

export interface IdentityProvider {
  /**
   * Registers an unconfirmed login for the seller and sends the verification code to the address.
   * Throws AccountExistsError when the address already has a login (the use case answers as if not).
   */
  signUp(input: { email: string; password: string; sellerId: number; businessName: string }): Promise<void>;
  /** Throws InvalidCodeError for a wrong, expired or used code, or an address without a pending login. */
  confirmSignUp(email: string, code: string): Promise<void>;
  /** Throws InvalidCredentialsError (unknown address or wrong password alike) or NotConfirmedError. */
  signIn(email: string, password: string): Promise<SignInOutcome>;
  /** The second step of a sign-in with TOTP; InvalidCodeError for a wrong code or an expired session. */
  answerTotp(email: string, session: string, code: string): Promise<SignedIn>;
  /** Throws InvalidSessionError for an unknown, expired or revoked refresh token. */
  refresh(refreshToken: string): Promise<Refreshed>;
  /** Revokes the refresh token (and the tokens it issued); an already invalid one is no error. */
  signOut(refreshToken: string): Promise<void>;
  /** Sends a reset code when the address has a confirmed login; nothing (and no error) otherwise. */
  forgotPassword(email: string): Promise<void>;
  /** Throws InvalidCodeError for a wrong or expired code or an unknown address. */
  resetPassword(email: string, code: string, password: string): Promise<void>;
  /** For the session of the refresh token; InvalidCredentialsError when `current` is wrong. */
  changePassword(refreshToken: string, current: string, next: string): Promise<void>;
  /** Starts adding an authenticator app: the shared secret (base32) to show once. */
  beginTotpSetup(refreshToken: string): Promise<{ secret: string }>;
  /** Checks a code of the new secret and makes TOTP required at every sign-in; InvalidCodeError otherwise. */
  finishTotpSetup(refreshToken: string, code: string): Promise<void>;
}

/** What the API knows of a seller's dashboard login beyond the token: whether it has a second factor. */
export interface SellerLogin {
  sellerId: number;
  /** Signed up through /api/auth/sign-up (sellers an operator created have the pool's MFA). */
  selfSignedUp: boolean;
  totpEnabled: boolean;
}

export interface SellerAccountRepository {
  /** Creates the seller (its profile) with its login record, under a fresh id, in one write. */
  register(input: { businessName: string; document: string; email: string }, at: Date): Promise<number>;
  /** The login record of a seller; null for a seller an operator created. */
  login(sellerId: number): Promise<SellerLogin | null>;
  markTotpEnabled(sellerId: number, at: Date): Promise<void>;
  /** Removes a seller registered by a sign-up whose address turned out to have a login already. */
  discard(sellerId: number): Promise<void>;
}
