import { useQuery } from "@connectrpc/connect-query";

import { AuthService } from "@/gen/socio/v1/auth_pb";
import { useAccessToken } from "@/lib/session";

/** The logged-in user (`GET /api/auth/me`); idle when no token is stored. */
export function useMe() {
  const token = useAccessToken();
  return useQuery(AuthService.method.getMe, {}, { enabled: token !== null, retry: false, staleTime: 60_000 });
}
