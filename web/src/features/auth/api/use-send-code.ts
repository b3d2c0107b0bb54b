import { useMutation } from "@connectrpc/connect-query";

import { AuthService } from "@/gen/socio/v1/auth_pb";

/** Asks for a login code on WhatsApp (`POST /api/auth/send-code`). */
export function useSendCode() {
  return useMutation(AuthService.method.sendCode);
}
