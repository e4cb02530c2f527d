import type { UseFormRegisterReturn } from 'react-hook-form';

/**
 * A field people never see or reach (off-screen, out of the tab order, hidden
 * from assistive technology) and bots fill in: the database refuses any
 * submission that has it filled, and says so.
 */
export function Honeypot({
  id,
  registration,
}: {
  id: string;
  registration: UseFormRegisterReturn;
}) {
  return (
    <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
      <label htmlFor={id}>Leave this field empty</label>
      <input id={id} type="text" tabIndex={-1} autoComplete="off" {...registration} />
    </div>
  );
}
