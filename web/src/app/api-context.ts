// What tests hand the app instead of the real API client: a transport (an in-memory Connect
// router) and a query cache. Type-only imports: the landing page's bundle carries no API client.

import type { Transport } from "@connectrpc/connect";
import type { QueryClient } from "@tanstack/react-query";
import { createContext } from "react";

export interface ApiOverrides {
  transport: Transport;
  queryClient: QueryClient;
}

export const ApiOverridesContext = createContext<ApiOverrides | null>(null);
