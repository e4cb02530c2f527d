import type { Workspace } from '@/lib/workspace/workspace';

export function AgentSettings({ workspace }: { workspace: Workspace }) {
  return <p>{workspace.name}</p>;
}
