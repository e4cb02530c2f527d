import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Select } from '@/components/ui/select';
import { adminLeadPath } from '@/config/paths';
import { rpcErrorMessage } from '@/lib/forms/rpc-error';
import { bookingsKeys, createLeadFromBooking } from '../api/bookings';

/** The call volumes a lead records (the talk-to-sales form's choices). */
const CALL_VOLUMES = [
  { value: 'under-500', label: 'Under 500 calls' },
  { value: '500-2000', label: '500–2,000 calls' },
  { value: '2000-10000', label: '2,000–10,000 calls' },
  { value: '10000+', label: 'More than 10,000 calls' },
] as const;

/**
 * A booking with no lead yet: after the demo, the admin adds its lead (the
 * booking's partner comes with it, so winning it earns their commission),
 * giving the monthly call volume the visitor told them, and goes to it.
 */
export function BookingLeadForm({
  bookingId,
  hasPartner,
}: {
  bookingId: string;
  hasPartner: boolean;
}) {
  const id = useId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [volume, setVolume] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!volume) {
      setError('Please choose their monthly call volume.');
      return;
    }
    setIsSaving(true);
    setError(null);
    try {
      const leadId = await createLeadFromBooking(bookingId, volume);
      await queryClient.invalidateQueries({ queryKey: bookingsKeys.all });
      await queryClient.invalidateQueries({ queryKey: ['leads'] });
      void navigate(adminLeadPath(leadId));
    } catch (caught) {
      setError(rpcErrorMessage(caught));
      setIsSaving(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} className="grid gap-2" noValidate>
      <p className="text-ink-700">
        No lead with this email yet.
        {hasPartner ? ' Its partner comes with the lead, for their commission.' : ''}
      </p>
      <div className="flex flex-wrap items-end gap-2">
        <div className="grid gap-1">
          <label htmlFor={`${id}-volume`} className="text-xs font-semibold text-ink-600">
            Monthly calls
          </label>
          <Select
            id={`${id}-volume`}
            value={volume}
            onChange={(event) => setVolume(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
          >
            <option value="">Choose…</option>
            {CALL_VOLUMES.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </Select>
        </div>
        <Button type="submit" variant="secondary" disabled={isSaving}>
          {isSaving ? 'Adding…' : 'Add as a lead'}
        </Button>
      </div>
      {error ? (
        <div id={`${id}-error`}>
          <Alert tone="error">{error}</Alert>
        </div>
      ) : null}
    </form>
  );
}
