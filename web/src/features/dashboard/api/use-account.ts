import { useMutation } from "@connectrpc/connect-query";

import { AccountService } from "@/gen/socio/v1/account_pb";

/** A complete copy of the person's data behind a signed link (`POST /api/account/export`). */
export function useExportMyData() {
  return useMutation(AccountService.method.exportMyData);
}

/** Deletes the person's account and data at once (`POST /api/account/delete`, with the explicit yes). */
export function useDeleteMyAccount() {
  return useMutation(AccountService.method.deleteMyAccount);
}
