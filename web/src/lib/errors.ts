// Reading the server's errors: its localised message, and the structured details it attaches
// (google.rpc ErrorInfo, BadRequest field violations, RetryInfo).

import { ConnectError } from "@connectrpc/connect";

import { BadRequestSchema, ErrorInfoSchema, RetryInfoSchema } from "@/gen/google/rpc/error_details_pb";

/** The server's message, or the fallback when there is none (network errors, timeouts). */
export function serverMessage(error: unknown, fallback: string): string {
  if (error instanceof ConnectError && error.rawMessage && !error.rawMessage.startsWith("[")) return error.rawMessage;
  return fallback;
}

export function errorInfo(error: unknown): { reason: string; metadata: Record<string, string> } | null {
  if (!(error instanceof ConnectError)) return null;
  const [info] = error.findDetails(ErrorInfoSchema);
  return info ? { reason: info.reason, metadata: info.metadata } : null;
}

export function fieldViolations(error: unknown): Record<string, string> {
  if (!(error instanceof ConnectError)) return {};
  const [badRequest] = error.findDetails(BadRequestSchema);
  return Object.fromEntries((badRequest?.fieldViolations ?? []).map((v) => [v.field, besideTheField(v.field, v.description)]));
}

/**
 * The server's words as they read next to the field's label: without the field's contract name
 * it starts with ("month deve ser…" → "Deve ser…").
 */
function besideTheField(field: string, description: string): string {
  const lead = [`${field}: `, `${field} `].find((start) => description.startsWith(start));
  if (!lead) return description;
  const rest = description.slice(lead.length);
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

/** Seconds the server asks to wait before trying again (google.rpc.RetryInfo), when it says. */
export function retryAfterSeconds(error: unknown): number | null {
  if (!(error instanceof ConnectError)) return null;
  const [retry] = error.findDetails(RetryInfoSchema);
  return retry?.retryDelay ? Math.max(1, Number(retry.retryDelay.seconds)) : null;
}
