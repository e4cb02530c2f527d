import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';

export interface FactorRemoval {
  title: string;
  description: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  onConfirm: () => Promise<void>;
}

/** One second factor in account settings: its name, a line about it, and a confirmed removal. */
export function FactorItem({
  icon: Icon,
  name,
  detail,
  removal,
}: {
  icon: LucideIcon;
  name: string;
  detail: string;
  removal: FactorRemoval;
}) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-sand-200 p-4">
      <div className="flex items-center gap-3">
        <Icon aria-hidden="true" className="size-5 text-mint-600" />
        <div>
          <p className="font-semibold break-all text-ink-900">{name}</p>
          <p className="text-sm text-ink-600">{detail}</p>
        </div>
      </div>
      <ConfirmDialog trigger={<Button variant="secondary">Remove</Button>} {...removal} />
    </li>
  );
}
