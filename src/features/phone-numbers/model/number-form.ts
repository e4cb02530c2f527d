import { z } from 'zod';
import { E164, normalizePhoneNumber, PHONE_NUMBER_HINT } from '@/lib/phone-number';

/** A number as the form takes it; the database cleans and checks it again (add_phone_number). */
export const numberFormSchema = z.object({
  e164: z
    .string()
    .transform(normalizePhoneNumber)
    .refine((value) => value !== '', 'Enter the phone number.')
    .refine((value) => value === '' || E164.test(value), PHONE_NUMBER_HINT),
  label: z.string().trim().max(80, 'Keep the label under 81 characters.'),
  agentId: z.string().min(1, 'Choose the agent that answers this number.'),
});
export type NumberFormInput = z.input<typeof numberFormSchema>;
export type NumberFormValues = z.output<typeof numberFormSchema>;

/** The form's field for each argument the database may name. */
export const NUMBER_SERVER_FIELDS = {
  e164: 'e164',
  label: 'label',
  agent_id: 'agentId',
} as const;
