import type { Workspace } from '@/lib/workspace/workspace';

export function PhoneNumbers({ workspace }: { workspace: Workspace }) {
  return <p>{workspace.name}</p>;
}
