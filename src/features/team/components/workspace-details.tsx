import type { Workspace } from '@/lib/workspace/workspace';

export function WorkspaceDetails({ workspace }: { workspace: Workspace }) {
  return <p>{workspace.name}</p>;
}
