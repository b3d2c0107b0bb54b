// Signing out, as the shared header offers it: the session ended at the server (its refresh token
// revoked), then this browser leaves the protected page, forgets the tokens and every cached read.
import { useMutation } from "@connectrpc/connect-query";
import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";

import { AuthService } from "@/gen/socio/v1/auth_pb";
import { clearTokens, getRefreshToken } from "@/lib/session";

/** Ends the session; the tokens and the cache go even when the server cannot be reached. `pending`
 * while the server is asked. */
export function useSignOut(): { signOut: () => Promise<void>; pending: boolean } {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const logout = useMutation(AuthService.method.logout);
  const signOut = async () => {
    try {
      await logout.mutateAsync({ refreshToken: getRefreshToken() ?? "" });
    } finally {
      // Leave the protected page first, so its guard does not send us to /login.
      await navigate("/");
      clearTokens();
      queryClient.clear();
    }
  };
  return { signOut, pending: logout.isPending };
}
