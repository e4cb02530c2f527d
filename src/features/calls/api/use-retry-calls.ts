import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { callsKeys } from './query-keys';

/**
 * Loads again every calls query of the workspace that failed: when the
 * connection drops, the figures, trends and lists fail together, and one
 * "Try again" should bring them all back.
 */
export function useRetryFailedCalls(workspaceId: string) {
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      void queryClient.refetchQueries({
        queryKey: callsKeys.workspace(workspaceId),
        type: 'active',
        predicate: (query) => query.state.status === 'error',
      }),
    [queryClient, workspaceId],
  );
}
