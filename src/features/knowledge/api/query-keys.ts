/** Everything about one workspace's documents starts with ['knowledge', workspaceId]. */
export const knowledgeKeys = {
  workspace: (workspaceId: string) => ['knowledge', workspaceId] as const,
  documents: (workspaceId: string) => ['knowledge', workspaceId, 'documents'] as const,
  limits: () => ['knowledge-limits'] as const,
};
