// Plain REST calls with the envelope of docs/ARCHITECTURE.md — {"success": true, "data": …} or
// {"success": false, "message", "error", "errors"} — for the pages that must stay light (the
// landing page carries no gRPC-Web client) and the REST-only dev endpoints.

export const REQUEST_TIMEOUT_MS = 30_000;

export class RestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    /** Field violations by field name. */
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
  }
}

type Envelope<T> =
  | { success: true; data: T; message?: string }
  | { success: false; message?: string; error?: string; errors?: { field: string; message: string }[] };

export async function restCall<T>(path: string, init: RequestInit & { language: string }): Promise<T> {
  const { language, ...rest } = init;
  const response = await fetch(path, {
    ...rest,
    headers: { "Content-Type": "application/json", "Accept-Language": language, ...rest.headers },
    signal: rest.signal ?? AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const body = (await response.json().catch(() => null)) as Envelope<T> | null;
  if (!response.ok || !body || !body.success) {
    const failure = body && !body.success ? body : null;
    const fields = Object.fromEntries((failure?.errors ?? []).map((e) => [e.field, e.message]));
    throw new RestError(failure?.message ?? response.statusText, response.status, failure?.error ?? "UNKNOWN", fields);
  }
  return body.data;
}
