import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field, fieldProps } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { applyAuthError } from '@/lib/auth/apply-auth-error';
import { describeAuthError } from '@/lib/auth/auth-error-message';
import { codeSchema, type CodeValues } from '../model/schemas';
import { FormError } from '@/components/ui/form-error';
import { SubmitButton } from '@/components/ui/submit-button';

export interface CodeFormProps {
  id: string;
  label: string;
  submitLabel: string;
  onVerify: (code: string) => Promise<void>;
  /** Sends a new code; the form offers it when given. */
  onResend?: () => Promise<void>;
  resendLabel?: string;
}

/** A numeric code from an email, a text or an authenticator app. */
export function CodeForm({
  id,
  label,
  submitLabel,
  onVerify,
  onResend,
  resendLabel,
}: CodeFormProps) {
  const form = useForm<CodeValues>({
    resolver: zodResolver(codeSchema),
    defaultValues: { code: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const [resendState, setResendState] = useState<{
    busy: boolean;
    message?: string;
    isError?: boolean;
  }>({
    busy: false,
  });

  const handleSubmit = form.handleSubmit(async (values) => {
    try {
      await onVerify(values.code.trim());
    } catch (error) {
      applyAuthError(form, error, { code: 'code' });
    }
  });

  const handleResend = async () => {
    if (!onResend) return;
    setResendState({ busy: true });
    try {
      await onResend();
      setResendState({ busy: false, message: 'We sent a new code. It replaces the one before.' });
    } catch (error) {
      setResendState({ busy: false, isError: true, message: describeAuthError(error).message });
    }
  };

  return (
    <form noValidate onSubmit={handleSubmit} className="grid gap-5">
      <Field id={id} label={label} error={errors.code?.message}>
        <Input
          {...fieldProps(id, { error: errors.code?.message })}
          {...form.register('code')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={10}
          className="text-lg tracking-[0.3em]"
        />
      </Field>
      <FormError errors={errors} />
      <SubmitButton isBusy={isSubmitting} label={submitLabel} busyLabel="Checking..." />
      {onResend ? (
        <div className="grid gap-3">
          <Button
            variant="ghost"
            onClick={handleResend}
            disabled={resendState.busy}
            aria-busy={resendState.busy || undefined}
          >
            {resendState.busy ? 'Sending...' : (resendLabel ?? 'Send a new code')}
          </Button>
          {resendState.message ? (
            <Alert tone={resendState.isError ? 'error' : 'success'}>{resendState.message}</Alert>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}
