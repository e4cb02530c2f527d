import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { QueryError } from '@/components/data/query-error';
import { Field, fieldProps } from '@/components/ui/field';
import { FormError } from '@/components/ui/form-error';
import { Skeleton } from '@/components/ui/skeleton';
import { SubmitButton } from '@/components/ui/submit-button';
import { Textarea } from '@/components/ui/textarea';
import { applyRpcError } from '@/lib/forms/rpc-error';
import { addLeadNote, useLeadNotes } from '../api/leads-detail';
import { leadsKeys } from '../api/leads-keys';
import { formatLeadTime } from '../model/leads';

/** The lead's notes, oldest first, and a form to add one. */
export function LeadNotes({ leadId }: { leadId: string }) {
  const queryClient = useQueryClient();
  const notes = useLeadNotes(leadId);
  const form = useForm<{ body: string }>({ defaultValues: { body: '' } });
  const { errors, isSubmitting } = form.formState;

  const handleSubmit = form.handleSubmit(async ({ body }) => {
    try {
      await addLeadNote(leadId, body);
      form.reset({ body: '' });
      await queryClient.invalidateQueries({ queryKey: leadsKeys.notes(leadId) });
    } catch (error) {
      applyRpcError(form, error, { p_body: 'body', body: 'body' });
    }
  });

  return (
    <section
      aria-labelledby="lead-notes-heading"
      className="grid gap-4 rounded-2xl border border-sand-200 bg-white p-5 sm:p-6"
    >
      <h2 id="lead-notes-heading" className="text-lg font-semibold text-ink-900">
        Notes
      </h2>
      {notes.isError ? (
        <QueryError
          what="the notes"
          onRetry={() => void notes.refetch()}
          isRetrying={notes.isFetching}
        />
      ) : !notes.data ? (
        <div role="status" className="grid gap-2">
          <span className="sr-only">Loading the notes…</span>
          <Skeleton className="h-16 w-full" />
        </div>
      ) : notes.data.length === 0 ? (
        <p className="text-sm text-ink-600">No notes yet.</p>
      ) : (
        <ol aria-label="Notes, oldest first" className="grid gap-3">
          {notes.data.map((note) => (
            <li key={note.id} className="rounded-lg bg-sand-50 px-4 py-3">
              <p className="text-xs text-ink-600">
                <span className="font-semibold text-ink-800">
                  {note.author?.full_name ?? 'An admin'}
                </span>
                {' · '}
                <time dateTime={note.created_at}>{formatLeadTime(note.created_at)}</time>
              </p>
              <p className="mt-1 text-sm whitespace-pre-wrap text-ink-900">{note.body}</p>
            </li>
          ))}
        </ol>
      )}
      <form noValidate onSubmit={handleSubmit} className="grid gap-3">
        <Field id="lead-note" label="Add a note" error={errors.body?.message}>
          <Textarea
            {...fieldProps('lead-note', { error: errors.body?.message })}
            {...form.register('body', {
              validate: (value) => value.trim() !== '' || 'Please write the note first.',
            })}
            maxLength={5000}
            rows={3}
          />
        </Field>
        <FormError errors={errors} />
        <div>
          <SubmitButton
            isBusy={isSubmitting}
            busyLabel="Adding…"
            label="Add note"
            isFullWidth={false}
          />
        </div>
      </form>
    </section>
  );
}
