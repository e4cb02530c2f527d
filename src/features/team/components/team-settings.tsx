import type { Workspace } from '@/lib/workspace/workspace';

export function TeamSettings({ workspace }: { workspace: Workspace }) {
  return <p>{workspace.name}</p>;
}
