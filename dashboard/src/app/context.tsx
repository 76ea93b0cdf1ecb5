import { createContext, useContext } from 'react';
import type { Api, Environment } from '../api/client';
import type { Session } from './session';

export interface AppContextValue {
  api: Api;
  session: Session;
  environment: Environment;
  setEnvironment(environment: Environment): void;
  /** The seller chosen in the switcher; null: the login's own. */
  sellerId: number | null;
  setSellerId(sellerId: number | null): void;
}

export const AppContext = createContext<AppContextValue | null>(null);

export function useApp(): AppContextValue {
  const value = useContext(AppContext);
  if (!value) throw new Error('useApp outside the app');
  return value;
}

/**
 * Query keys: the resource under the environment the switch shows, so a mode never sees the other's
 * cache. A seller switch resets every query instead (app.tsx), so keys need not name the seller.
 */
export function useKey(...parts: (string | number | undefined)[]): (string | number | undefined)[] {
  return [useApp().environment, ...parts];
}
