import type { CallSort, CallsQueryArgs } from '../model/filters';
import type { PageCursor } from '../model/call-list';

/**
 * The calls queries' keys. Everything about one workspace's calls starts with
 * ['calls', workspaceId], so a live change invalidates them all at once.
 */
export const callsKeys = {
  workspace: (workspaceId: string) => ['calls', workspaceId] as const,
  kpis: (args: CallsQueryArgs) =>
    ['calls', args.p_workspace_id, 'kpis', args.p_from, args.p_to, args.p_filters] as const,
  trends: (args: CallsQueryArgs, timeZone: string) =>
    [
      'calls',
      args.p_workspace_id,
      'trends',
      args.p_from,
      args.p_to,
      args.p_filters,
      timeZone,
    ] as const,
  page: (args: CallsQueryArgs, sort: CallSort, cursor: PageCursor | null, size: number) =>
    [
      'calls',
      args.p_workspace_id,
      'page',
      args.p_from,
      args.p_to,
      args.p_filters,
      sort,
      cursor,
      size,
    ] as const,
  samples: (workspaceId: string) => ['calls', workspaceId, 'samples'] as const,
};
