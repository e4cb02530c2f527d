import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { QueryError } from '@/components/data/query-error';
import { PortalPage } from '@/components/layout/portal-page';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { buttonStyles } from '@/components/ui/button-styles';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field } from '@/components/ui/field';
import { Select } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { showToast } from '@/components/ui/toaster';
import { rpcErrorMessage } from '@/lib/forms/rpc-error';
import {
  banUser,
  deleteUser,
  sendPasswordReset,
  setUserRole,
  unbanUser,
  userDetailQuery,
  usersKeys,
} from '../api/users';
import {
  BAN_DURATIONS,
  USER_ROLES,
  USER_ROLE_LABELS,
  banDescription,
  banEnd,
  factorTypeLabel,
  formatUserTime,
  providerLabel,
  userLabel,
  type UserDetail as Detail,
  type UserRole,
} from '../model/users';
import { BannedBadge, UserRoleBadge } from './user-role-badge';

/** An account's page: who they are, where they work, how they sign in, and the admin's actions. */
export function UserDetail({ userId, backTo }: { userId: string; backTo: string }) {
  const user = useQuery(userDetailQuery(userId));
  const back = (
    <Link to={backTo} className={buttonStyles({ variant: 'secondary' })}>
      <ArrowLeft aria-hidden="true" className="size-4" />
      Back to users
    </Link>
  );

  if (user.isError) {
    return (
      <PortalPage eyebrow="Admin · Users" title="User" actions={back}>
        <QueryError
          what="this account"
          onRetry={() => void user.refetch()}
          isRetrying={user.isFetching}
        />
      </PortalPage>
    );
  }
  if (user.data === undefined) {
    return (
      <PortalPage eyebrow="Admin · Users" title="User" actions={back}>
        <div role="status" className="grid gap-4">
          <span className="sr-only">Loading the account…</span>
          <Skeleton className="h-40 w-full rounded-2xl" />
          <Skeleton className="h-64 w-full rounded-2xl" />
        </div>
      </PortalPage>
    );
  }
  if (user.data === null) {
    return (
      <PortalPage eyebrow="Admin · Users" title="Account not found" actions={back}>
        <p className="text-ink-700">There is no account at this address (any more).</p>
      </PortalPage>
    );
  }

  const current = user.data;
  return (
    <PortalPage
      eyebrow="Admin · Users"
      title={userLabel(current)}
      description={
        <p className="flex flex-wrap items-center gap-2">
          <UserRoleBadge role={current.role as UserRole} />
          <BannedBadge bannedUntil={current.banned_until} />
          <span className="break-all">{current.email ?? 'No email address'}</span>
        </p>
      }
      actions={back}
    >
      {/* On a phone the actions follow the profile; from 1024 px they sit in the right column. */}
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)] lg:items-start">
        <div className="lg:col-start-1">
          <UserFacts user={current} />
        </div>
        <div className="lg:col-start-2 lg:row-span-3 lg:row-start-1">
          <UserActions
            key={`${current.role}:${current.banned_until ?? ''}`}
            user={current}
            backTo={backTo}
          />
        </div>
        <div className="lg:col-start-1">
          <UserWorkspaces user={current} />
        </div>
        <div className="lg:col-start-1">
          <UserSignIn user={current} />
        </div>
      </div>
    </PortalPage>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section
      aria-labelledby={id}
      className="grid gap-4 rounded-2xl border border-sand-200 bg-white p-5 sm:p-6"
    >
      <h2 id={id} className="text-lg font-semibold text-ink-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Facts({ facts }: { facts: [string, ReactNode][] }) {
  return (
    <dl className="grid gap-3">
      {facts.map(([label, value]) => (
        <div key={label} className="grid gap-0.5 sm:grid-cols-[10rem_1fr] sm:gap-3">
          <dt className="text-sm font-semibold text-ink-600">{label}</dt>
          <dd className="text-sm break-words text-ink-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function UserFacts({ user }: { user: Detail }) {
  const time = (value: string | null, none?: string) =>
    value ? <time dateTime={value}>{formatUserTime(value)}</time> : (none ?? 'Never');
  return (
    <Section id="user-profile-heading" title="Profile">
      <Facts
        facts={[
          ['Name', user.full_name ?? '—'],
          ['Company', user.company ?? '—'],
          ['Email', user.email ?? '—'],
          ['Phone', user.phone ?? '—'],
          ['Role', USER_ROLE_LABELS[user.role as UserRole]],
          ['Signed up', time(user.created_at)],
          ['Email confirmed', time(user.email_confirmed_at, 'Not yet')],
          ['Invited', time(user.invited_at, '—')],
          ['Last sign-in', time(user.last_sign_in_at)],
          ['Banned until', banEnd(user.banned_until) ?? 'Not banned'],
        ]}
      />
    </Section>
  );
}

function UserWorkspaces({ user }: { user: Detail }) {
  return (
    <Section id="user-workspaces-heading" title="Workspaces">
      {user.workspaces.length === 0 ? (
        <p className="text-sm text-ink-700">Not a member of any workspace.</p>
      ) : (
        <ul className="divide-y divide-sand-200">
          {user.workspaces.map((workspace) => (
            <li key={workspace.id} className="flex items-center justify-between gap-3 py-2 text-sm">
              <span className="text-ink-900">{workspace.name}</span>
              <span className="text-ink-600 capitalize">{workspace.role}</span>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

function UserSignIn({ user }: { user: Detail }) {
  return (
    <Section id="user-sign-in-heading" title="Sign-in methods and second factors">
      <div className="grid gap-2">
        <h3 className="text-sm font-semibold text-ink-900">Sign-in methods</h3>
        {user.identities.length === 0 ? (
          <p className="text-sm text-ink-700">None.</p>
        ) : (
          <ul className="grid gap-1 text-sm text-ink-700">
            {user.identities.map((identity) => (
              <li key={`${identity.provider}:${identity.email ?? ''}`}>
                {providerLabel(identity.provider)}
                {identity.email ? ` (${identity.email})` : ''}
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="grid gap-2">
        <h3 className="text-sm font-semibold text-ink-900">Second factors</h3>
        {user.factors.length === 0 ? (
          <p className="text-sm text-ink-700">No second factor.</p>
        ) : (
          <ul className="grid gap-1 text-sm text-ink-700">
            {user.factors.map((factor) => (
              <li key={factor.id}>
                {factorTypeLabel(factor.factor_type)}
                {factor.friendly_name ? ` “${factor.friendly_name}”` : ''} ·{' '}
                {factor.status === 'verified' ? 'Verified' : 'Not verified'}
              </li>
            ))}
          </ul>
        )}
      </div>
    </Section>
  );
}

function UserActions({ user, backTo }: { user: Detail; backTo: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [role, setRole] = useState<UserRole>(user.role as UserRole);
  const [duration, setDuration] = useState(BAN_DURATIONS[1]!.value);
  const [error, setError] = useState<string | null>(null);
  const [isSendingReset, setIsSendingReset] = useState(false);
  const name = userLabel(user);
  const banned = banDescription(user.banned_until);

  /** Runs an action; its refusal shows as a sentence here, and the account reloads. */
  const act = async (action: () => Promise<unknown>, done: string) => {
    setError(null);
    try {
      await action();
      void showToast('success', done);
    } catch (failure) {
      setError(rpcErrorMessage(failure));
    } finally {
      await queryClient.invalidateQueries({ queryKey: usersKeys.all });
    }
  };

  if (user.is_self) {
    return (
      <Section id="user-actions-heading" title="Actions">
        <p className="text-sm text-ink-700">
          This is your own account. Another admin can change your role, ban or delete it; you can
          change your password and second factor in your account settings.
        </p>
      </Section>
    );
  }

  const chosenBan = BAN_DURATIONS.find((option) => option.value === duration) ?? BAN_DURATIONS[1]!;
  return (
    <Section id="user-actions-heading" title="Actions">
      {error ? <Alert tone="error">{error}</Alert> : null}

      <div className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end">
        <Field id="user-role" label="Role">
          <Select
            id="user-role"
            value={role}
            onChange={(event) => setRole(event.target.value as UserRole)}
          >
            {USER_ROLES.map((value) => (
              <option key={value} value={value}>
                {USER_ROLE_LABELS[value]}
              </option>
            ))}
          </Select>
        </Field>
        <ConfirmDialog
          trigger={
            <Button variant="secondary" disabled={role === user.role}>
              Change role
            </Button>
          }
          title={`Make ${name} ${USER_ROLE_LABELS[role].toLowerCase() === 'admin' ? 'an admin' : `a ${USER_ROLE_LABELS[role].toLowerCase()}`}?`}
          description={
            <p>
              They are signed out everywhere and sign in again with the new role.
              {role === 'admin' ? ' Admins see and change everything in Cervana.' : ''}
            </p>
          }
          confirmLabel="Change role"
          busyLabel="Changing…"
          onConfirm={() =>
            act(
              () => setUserRole(user.id, role),
              `${name} is now ${USER_ROLE_LABELS[role].toLowerCase()}.`,
            )
          }
        />
      </div>

      <div className="grid gap-3 border-t border-sand-200 pt-4">
        {banned ? (
          <div className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-center">
            <p className="text-sm text-ink-800">{banned}. They cannot sign in.</p>
            <Button
              variant="secondary"
              onClick={() => void act(() => unbanUser(user.id), `${name} can sign in again.`)}
            >
              Lift the ban
            </Button>
          </div>
        ) : (
          <div className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end">
            <Field id="user-ban-duration" label="Ban for">
              <Select
                id="user-ban-duration"
                value={duration}
                onChange={(event) => setDuration(event.target.value)}
              >
                {BAN_DURATIONS.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </Select>
            </Field>
            <ConfirmDialog
              trigger={<Button variant="secondary">Ban</Button>}
              title={`Ban ${name}?`}
              description={
                <p>
                  They are signed out at once, everywhere, and cannot sign in{' '}
                  {chosenBan.hours === null ? 'until you lift the ban' : `for ${chosenBan.label}`}.
                </p>
              }
              confirmLabel="Ban"
              busyLabel="Banning…"
              onConfirm={() => act(() => banUser(user.id, chosenBan.hours), `${name} is banned.`)}
            />
          </div>
        )}
      </div>

      <div className="grid gap-3 border-t border-sand-200 pt-4 sm:grid-cols-[1fr_auto] sm:items-center">
        <p className="text-sm text-ink-700">
          {user.email
            ? `Email ${user.email} a link to choose a new password.`
            : 'This account has no email address for a password reset.'}
        </p>
        <Button
          variant="secondary"
          disabled={!user.email || isSendingReset}
          aria-busy={isSendingReset || undefined}
          onClick={() => {
            setIsSendingReset(true);
            void act(
              () => sendPasswordReset(user.id),
              `Password reset sent to ${user.email}.`,
            ).finally(() => setIsSendingReset(false));
          }}
        >
          {isSendingReset ? 'Sending…' : 'Send password reset'}
        </Button>
      </div>

      <div className="grid gap-3 border-t border-sand-200 pt-4 sm:grid-cols-[1fr_auto] sm:items-center">
        <p className="text-sm text-ink-700">
          Deleting removes the account, its profile and memberships for good.
        </p>
        <ConfirmDialog
          trigger={<Button variant="secondary">Delete account</Button>}
          title={`Delete ${name}’s account?`}
          description={
            <p>
              This cannot be undone. Workspaces they owned pass to their longest-standing admin or
              member; leads and bookings keep their details.
            </p>
          }
          confirmLabel="Delete account"
          busyLabel="Deleting…"
          onConfirm={async () => {
            setError(null);
            try {
              await deleteUser(user.id);
              queryClient.removeQueries({ queryKey: usersKeys.detail(user.id) });
              await queryClient.invalidateQueries({ queryKey: usersKeys.all });
              void showToast('success', `${name}’s account is deleted.`);
              void navigate(backTo);
            } catch (failure) {
              setError(rpcErrorMessage(failure));
            }
          }}
        />
      </div>
    </Section>
  );
}
