import { useMutation } from "@connectrpc/connect-query";

import { AuthService } from "@/gen/socio/v1/auth_pb";

/** Trades a login code for tokens (`POST /api/auth/verify-code`). */
export function useVerifyCode() {
  return useMutation(AuthService.method.verifyCode);
}
