import { clsx, type ClassValue } from 'clsx';

/** Joins class names. Components avoid conflicting utilities instead of merging them at run time. */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
