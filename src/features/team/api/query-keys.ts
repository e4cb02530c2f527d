/** The team queries' keys: everything about one workspace's team starts with ['team', workspaceId]. */
export const teamKeys = {
  workspace: (workspaceId: string) => ['team', workspaceId] as const,
  members: (workspaceId: string) => ['team', workspaceId, 'members'] as const,
  invitations: (workspaceId: string) => ['team', workspaceId, 'invitations'] as const,
  connectedApps: (workspaceId: string) => ['team', workspaceId, 'connected-apps'] as const,
  mine: (userId: string) => ['my-invitations', userId] as const,
};
