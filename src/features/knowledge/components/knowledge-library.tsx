import type { Workspace } from '@/lib/workspace/workspace';

export function KnowledgeLibrary({ workspace }: { workspace: Workspace }) {
  return <p>{workspace.name}</p>;
}
