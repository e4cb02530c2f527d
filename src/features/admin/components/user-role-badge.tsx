import { cn } from '@/lib/cn';
import { USER_ROLE_LABELS, banDescription, type UserRole } from '../model/users';

const ROLE_STYLES: Record<UserRole, string> = {
  customer: 'bg-sand-100 text-ink-800',
  partner: 'bg-mint-50 text-mint-800',
  admin: 'bg-azure-50 text-azure-800',
};

export function UserRoleBadge({ role }: { role: UserRole }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap',
        ROLE_STYLES[role],
      )}
    >
      {USER_ROLE_LABELS[role]}
    </span>
  );
}

/** "Banned" with the end of the ban for screen readers and on hover; nothing when not banned. */
export function BannedBadge({ bannedUntil }: { bannedUntil: string | null }) {
  const description = banDescription(bannedUntil);
  if (!description) return null;
  return (
    <span
      title={description}
      className="inline-flex items-center rounded-full bg-danger-50 px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap text-danger-800"
    >
      Banned<span className="sr-only">: {description}</span>
    </span>
  );
}
