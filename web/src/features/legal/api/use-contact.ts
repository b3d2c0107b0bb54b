import { useQuery } from "@connectrpc/connect-query";

import { LandingService } from "@/gen/socio/v1/landing_pb";

/** How to reach us, the data protection officer included (`GET /api/contact`). */
export function useContact() {
  return useQuery(LandingService.method.getContact, {});
}
