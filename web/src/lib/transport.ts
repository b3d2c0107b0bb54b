// The client side of the API: gRPC-Web (tonic speaks gRPC-Web, not the Connect protocol) with the
// spec's request rules as interceptors — a bearer token when one is stored, Accept-Language from
// the current language, a 30 s deadline on every call, and on Unauthenticated one refresh of the
// tokens and one replay of the call; if that fails the session is cleared and the app is told.

import { Code, ConnectError, createClient, type Interceptor, type Transport } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";

import { AuthService } from "@/gen/socio/v1/auth_pb";

import { REQUEST_TIMEOUT_MS } from "./rest";
import { clearTokens, getAccessToken, getRefreshToken, isLeavingSession, storeTokens } from "./session";

export { REQUEST_TIMEOUT_MS } from "./rest";

/** Calls that must never trigger a refresh: the login calls themselves. */
const NO_REFRESH = new Set(["SendCode", "VerifyCode", "Refresh", "Logout"]);

export function authInterceptor(getToken: () => string | null = getAccessToken): Interceptor {
  return (next) => async (request) => {
    const token = getToken();
    if (token) request.header.set("Authorization", `Bearer ${token}`);
    return next(request);
  };
}

export function languageInterceptor(getLanguage: () => string): Interceptor {
  return (next) => async (request) => {
    request.header.set("Accept-Language", getLanguage());
    return next(request);
  };
}

/**
 * One refresh-and-replay on Unauthenticated. Concurrent failures share one refresh. `refresh`
 * returns the new access token, or null when the session cannot be renewed. A stream refused or
 * ended with Unauthenticated (the server ends streams when their token runs out) renews the
 * session too, and its caller reconnects with the new token: a stream's request cannot be replayed.
 */
export function refreshInterceptor(refresh: () => Promise<string | null>, onExpired: () => void): Interceptor {
  let pending: Promise<string | null> | null = null;
  /** One refresh shared by every caller that needs it now. */
  function shared(): Promise<string | null> {
    pending ??= refresh().finally(() => {
      pending = null;
    });
    return pending;
  }
  /** The renewed access token, or null after clearing the session and telling the app. */
  async function renew(): Promise<string | null> {
    const token = await shared();
    if (!token) {
      clearTokens();
      if (!isLeavingSession()) onExpired();
    }
    return token;
  }
  const isUnauthenticated = (error: unknown) => error instanceof ConnectError && error.code === Code.Unauthenticated;
  // A stream ended by the server renews quietly: when the session itself is over (a logout in
  // this or another tab), the next call says so, not the stream.
  async function* renewingOnEnd<T>(messages: AsyncIterable<T>): AsyncIterable<T> {
    try {
      yield* messages;
    } catch (error) {
      if (isUnauthenticated(error) && getRefreshToken()) await shared();
      throw error;
    }
  }
  return (next) => async (request) => {
    try {
      const response = await next(request);
      return response.stream ? { ...response, message: renewingOnEnd(response.message) } : response;
    } catch (error) {
      if (!isUnauthenticated(error) || NO_REFRESH.has(request.method.name) || !getRefreshToken()) {
        if (isUnauthenticated(error) && !NO_REFRESH.has(request.method.name) && getAccessToken()) {
          clearTokens();
          if (!isLeavingSession()) onExpired();
        }
        throw error;
      }
      if (request.stream) {
        await shared();
        throw error;
      }
      const token = await renew();
      if (!token) throw error;
      request.header.set("Authorization", `Bearer ${token}`);
      return next(request);
    }
  };
}

/** The Web Lock every tab of this origin takes to renew the session, one tab at a time. */
export const REFRESH_LOCK = "socio-refresh";

/** The browser's Web Locks, when it has them (every current browser; not jsdom, not old ones). */
function webLocks(): LockManager | undefined {
  return typeof navigator === "undefined" ? undefined : (navigator.locks as LockManager | undefined);
}

/**
 * Trades the stored refresh token for a new pair, over its own transport (no interceptor loop).
 *
 * Tabs share the tokens (localStorage) and the server rotates a refresh token on use, so two tabs
 * renewing at once would present the same token twice. Where the browser has Web Locks, tabs renew
 * one at a time under `REFRESH_LOCK`: a tab that gets the lock after another rotated the token it
 * saw takes the access token that tab stored instead of asking again. Without Web Locks it asks at
 * once, as before.
 */
export function refreshWith(transport: Transport): () => Promise<string | null> {
  const client = createClient(AuthService, transport);
  /** Asks the server for a new pair for `refreshToken`; null when it cannot be renewed. */
  async function exchange(refreshToken: string): Promise<string | null> {
    try {
      const pair = await client.refresh({ refreshToken });
      storeTokens(pair.token, pair.refreshToken);
      return pair.token;
    } catch {
      return null;
    }
  }
  return async () => {
    const seen = getRefreshToken();
    if (!seen) return null;
    const locks = webLocks();
    if (!locks) return exchange(seen);
    try {
      return await locks.request(REFRESH_LOCK, async () => {
        const current = getRefreshToken();
        // Another tab ended the session (a logout, a refused renewal) while this one waited.
        if (!current) return null;
        const access = getAccessToken();
        // Another tab renewed while this one waited: its new access token is this tab's too.
        if (current !== seen && access) return access;
        return exchange(current);
      });
    } catch {
      // Only the lock itself can fail here (an opaque origin): renew as without Web Locks.
      return exchange(seen);
    }
  };
}

export interface ApiOptions {
  getLanguage: () => string;
  onSessionExpired: () => void;
  baseUrl?: string;
}

export function apiInterceptors(options: ApiOptions, refresh: () => Promise<string | null>): Interceptor[] {
  return [refreshInterceptor(refresh, options.onSessionExpired), authInterceptor(), languageInterceptor(options.getLanguage)];
}

export function createApiTransport(options: ApiOptions): Transport {
  const baseUrl = options.baseUrl ?? window.location.origin;
  const plain = createGrpcWebTransport({
    baseUrl,
    interceptors: [languageInterceptor(options.getLanguage)],
    defaultTimeoutMs: REQUEST_TIMEOUT_MS,
  });
  return createGrpcWebTransport({
    baseUrl,
    interceptors: apiInterceptors(options, refreshWith(plain)),
    defaultTimeoutMs: REQUEST_TIMEOUT_MS,
  });
}
