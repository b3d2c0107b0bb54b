// A fake of the server's REST API for the pages that call it with plain fetch (the landing page):
// handlers by "METHOD /path" answer in the REST envelope; every request is recorded. Failures have
// the server's shape (server/src/api/rest/envelope.rs): {"success": false, "message", "error",
// "errors": [{"field", "message"}]}, the message being the server's localised sentence.

import { vi } from "vitest";

export interface RestRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

export type RestHandler = (request: RestRequest) => { status?: number; data?: unknown; message?: string; errors?: { field: string; message: string }[] };

export function stubRest(handlers: Record<string, RestHandler>): RestRequest[] {
  const requests: RestRequest[] = [];
  vi.stubGlobal("fetch", async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, "http://localhost");
    const method = (init.method ?? "GET").toUpperCase();
    const request = { method, path: url.pathname, query: url.searchParams, body: init.body ? JSON.parse(String(init.body)) : null };
    requests.push(request);
    const handler = handlers[`${method} ${url.pathname}`];
    const reply = handler ? handler(request) : { status: 404, message: "Not found" };
    const status = reply.status ?? 200;
    const envelope = status < 400 ? { success: true, data: reply.data ?? {}, message: reply.message } : { success: false, message: reply.message, error: "ERROR", errors: reply.errors };
    return new Response(JSON.stringify(envelope), { status, headers: { "content-type": "application/json" } });
  });
  return requests;
}
