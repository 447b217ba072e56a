import { QueryClient } from "@tanstack/react-query";
import { isApiError } from "../lib/api-client";

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // Retrying an answer the server gave on purpose (4xx) only delays the error the user must see.
        retry: (failureCount, error) => failureCount < 2 && !(isApiError(error) && error.status >= 400),
      },
      mutations: { retry: false },
    },
  });
}
