import { useMutation, useQuery } from "@connectrpc/connect-query";

import { AuthService, WhatsAppLoginStatus } from "@/gen/socio/v1/auth_pb";

/** Starts a login by message (`POST /api/auth/whatsapp-login`): the text to send and its link. */
export function useStartWhatsAppLogin() {
  return useMutation(AuthService.method.startWhatsAppLogin);
}

/** How a login by message stands (`GET /api/auth/whatsapp-login/{loginId}`), asked every 2 s
 * while it waits; the tokens come in the first answer after the person confirmed on WhatsApp. */
export function useWhatsAppLogin(loginId: string | null) {
  return useQuery(
    AuthService.method.getWhatsAppLogin,
    { loginId: loginId ?? "" },
    {
      enabled: loginId !== null,
      retry: false,
      gcTime: 0,
      staleTime: 0,
      refetchInterval: (query) =>
        query.state.data === undefined || query.state.data.status === WhatsAppLoginStatus.WAITING ? 2_000 : false,
    },
  );
}
