// The stored session: the access and refresh tokens under the spec's storage keys, with a tiny
// subscription so the UI follows logins and logouts (in this tab and others).

import { useSyncExternalStore } from "react";

export const ACCESS_TOKEN_KEY = "authToken";
export const REFRESH_TOKEN_KEY = "refreshToken";

const listeners = new Set<() => void>();

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function notify(): void {
  for (const listener of listeners) listener();
}

export function getAccessToken(): string | null {
  return read(ACCESS_TOKEN_KEY);
}

export function getRefreshToken(): string | null {
  return read(REFRESH_TOKEN_KEY);
}

/**
 * Set while the person ends their own session on purpose (deleting the account): the server ends
 * it before the answer arrives, and what notices that first must not send them to /login.
 */
let leaving = false;

/** The person is ending their session on purpose (until `stayInSession` or the next login). */
export function leaveSession(): void {
  leaving = true;
}

/** Leaving did not happen after all (the call failed). */
export function stayInSession(): void {
  leaving = false;
}

export function isLeavingSession(): boolean {
  return leaving;
}

export function storeTokens(token: string, refreshToken: string): void {
  leaving = false;
  window.localStorage.setItem(ACCESS_TOKEN_KEY, token);
  window.localStorage.setItem(REFRESH_TOKEN_KEY, refreshToken);
  notify();
}

export function clearTokens(): void {
  window.localStorage.removeItem(ACCESS_TOKEN_KEY);
  window.localStorage.removeItem(REFRESH_TOKEN_KEY);
  notify();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === ACCESS_TOKEN_KEY || event.key === null) listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

/** The stored access token, kept current. */
export function useAccessToken(): string | null {
  return useSyncExternalStore(subscribe, getAccessToken, () => null);
}
