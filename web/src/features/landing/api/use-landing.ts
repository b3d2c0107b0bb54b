import { useMutation, useQuery } from "@connectrpc/connect-query";

import { LandingService } from "@/gen/socio/v1/landing_pb";

/** How to reach us: the business's WhatsApp and the support address (`GET /api/contact`). */
export function useContact() {
  return useQuery(LandingService.method.getContact, {}, { staleTime: Infinity });
}

/** Signs an address up to the newsletter with consent (`POST /api/newsletter`). */
export function useSubscribeNewsletter() {
  return useMutation(LandingService.method.subscribeNewsletter);
}
