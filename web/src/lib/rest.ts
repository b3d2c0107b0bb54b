// The few REST-only endpoints (dev tools, webhooks' siblings) speak the envelope of ARCHITECTURE §3:
// {"success": true, "data": …} or {"success": false, "message", "error"}.

import { REQUEST_TIMEOUT_MS } from "./transport";

export class RestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
  ) {
    super(message);
  }
}

export async function restCall<T>(path: string, init: RequestInit & { language: string }): Promise<T> {
  const { language, ...rest } = init;
  const response = await fetch(path, {
    ...rest,
    headers: { "Content-Type": "application/json", "Accept-Language": language, ...rest.headers },
    signal: rest.signal ?? AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const body = (await response.json().catch(() => null)) as
    | { success: true; data: T }
    | { success: false; message?: string; error?: string }
    | null;
  if (!response.ok || !body || !body.success) {
    const failure = body && !body.success ? body : null;
    throw new RestError(failure?.message ?? response.statusText, response.status, failure?.error ?? "UNKNOWN");
  }
  return body.data;
}
