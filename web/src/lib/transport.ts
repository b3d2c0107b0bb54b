// The client side of the API: gRPC-Web (tonic speaks gRPC-Web, not the Connect protocol) with the
// spec's request rules as interceptors — a bearer token when one is stored, Accept-Language from
// the current language, and a 30 s deadline on every call.

import type { Interceptor, Transport } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";

import { getAccessToken } from "./session";

export const REQUEST_TIMEOUT_MS = 30_000;

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

export function apiInterceptors(getLanguage: () => string): Interceptor[] {
  return [authInterceptor(), languageInterceptor(getLanguage)];
}

export function createApiTransport(getLanguage: () => string, baseUrl: string = window.location.origin): Transport {
  return createGrpcWebTransport({
    baseUrl,
    interceptors: apiInterceptors(getLanguage),
    defaultTimeoutMs: REQUEST_TIMEOUT_MS,
  });
}
