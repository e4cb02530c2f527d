import { act, render, type RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';

/**
 * Renders inside an awaited act(), so components that suspend with `use()`
 * resume when their data arrives (a plain render() leaves them suspended).
 */
export async function renderAsync(ui: ReactNode): Promise<RenderResult> {
  let result: RenderResult | undefined;
  await act(async () => {
    result = render(ui);
  });
  return result!;
}
