import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Field, fieldProps } from '@/components/ui/field';
import { FormError } from '@/components/ui/form-error';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { SubmitButton } from '@/components/ui/submit-button';
import { applyRpcError } from '@/lib/forms/rpc-error';
import type { AgentChoice, NumberInput } from '../api/phone-numbers';
import {
  NUMBER_SERVER_FIELDS,
  numberFormSchema,
  type NumberFormInput,
  type NumberFormValues,
} from '../model/number-form';

/** Adds a number, or changes one: the number, its label and the agent that answers it. */
export function NumberForm({
  idPrefix,
  agents,
  initial,
  submitLabel,
  busyLabel,
  onSubmit,
  onCancel,
}: {
  idPrefix: string;
  agents: AgentChoice[];
  initial: NumberFormInput;
  submitLabel: string;
  busyLabel: string;
  /** Resolves when stored; a rejection is shown under the field the database names. */
  onSubmit: (input: NumberInput) => Promise<void>;
  onCancel?: () => void;
}) {
  const form = useForm<NumberFormInput, unknown, NumberFormValues>({
    resolver: zodResolver(numberFormSchema),
    defaultValues: initial,
  });
  const { errors, isSubmitting } = form.formState;
  const id = (name: string) => `${idPrefix}-${name}`;

  const handleSubmit = form.handleSubmit(async (values) => {
    try {
      await onSubmit(values);
      form.reset(initial);
    } catch (error) {
      applyRpcError(form, error, NUMBER_SERVER_FIELDS);
    }
  });

  return (
    <form noValidate onSubmit={handleSubmit} className="grid gap-4">
      <div className="grid gap-4 md:grid-cols-[minmax(0,1.2fr)_minmax(0,1fr)_minmax(0,1fr)]">
        <Field
          id={id('e164')}
          label="Phone number"
          error={errors.e164?.message}
          hint="With the country code, like +1 415 555 0100."
        >
          <Input
            {...fieldProps(id('e164'), {
              error: errors.e164?.message,
              hint: 'With the country code, like +1 415 555 0100.',
            })}
            {...form.register('e164')}
            type="tel"
            inputMode="tel"
            autoComplete="off"
            placeholder="+1 415 555 0100"
          />
        </Field>
        <Field id={id('label')} label="Label (optional)" error={errors.label?.message}>
          <Input
            {...fieldProps(id('label'), { error: errors.label?.message })}
            {...form.register('label')}
            autoComplete="off"
            placeholder="Support line"
            maxLength={120}
          />
        </Field>
        <Field id={id('agent')} label="Answered by" error={errors.agentId?.message}>
          <Select
            {...fieldProps(id('agent'), { error: errors.agentId?.message })}
            {...form.register('agentId')}
          >
            {agents.map((agent) => (
              <option key={agent.id} value={agent.id}>
                {agent.name}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <FormError errors={errors} />
      <div className="flex flex-wrap gap-3">
        <SubmitButton
          isBusy={isSubmitting}
          label={submitLabel}
          busyLabel={busyLabel}
          isFullWidth={false}
        />
        {onCancel ? (
          <Button variant="ghost" onClick={onCancel} disabled={isSubmitting}>
            Cancel
          </Button>
        ) : null}
      </div>
    </form>
  );
}
