import type { FieldErrors, UseFormRegister, UseFormRegisterReturn } from 'react-hook-form';
import { Field, fieldProps } from './field';
import { Input } from './input';

interface ContactValues {
  fullName: string;
  email: string;
  company: string;
}

type ContactRegistrations = Record<keyof ContactValues, UseFormRegisterReturn>;

/**
 * Registers the three fields with the form. Called where the form is laid out,
 * before the fields below them, so a failed submit focuses the first field in
 * page order (react-hook-form focuses in the order fields were registered).
 */
export function registerContact<Values extends ContactValues>(
  register: UseFormRegister<Values>,
): ContactRegistrations {
  // The three names exist on every form that uses this component.
  const registerAny = register as unknown as UseFormRegister<ContactValues>;
  return {
    fullName: registerAny('fullName'),
    email: registerAny('email'),
    company: registerAny('company'),
  };
}

/** Full name, work email and company: the first three answers of every public form. */
export function ContactFields({
  idPrefix,
  registrations,
  errors,
}: {
  idPrefix: string;
  registrations: ContactRegistrations;
  errors: FieldErrors<ContactValues>;
}) {
  const props = (name: keyof ContactValues) =>
    fieldProps(`${idPrefix}-${name}`, { error: errors[name]?.message });
  return (
    <>
      <Field id={`${idPrefix}-fullName`} label="Full name" error={errors.fullName?.message}>
        <Input
          {...props('fullName')}
          {...registrations.fullName}
          autoComplete="name"
          maxLength={200}
        />
      </Field>
      <Field id={`${idPrefix}-email`} label="Work email" error={errors.email?.message}>
        <Input
          {...props('email')}
          {...registrations.email}
          type="email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={300}
        />
      </Field>
      <Field id={`${idPrefix}-company`} label="Company" error={errors.company?.message}>
        <Input
          {...props('company')}
          {...registrations.company}
          autoComplete="organization"
          maxLength={200}
        />
      </Field>
    </>
  );
}
