import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project folder, seen from the test helpers. */
export const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
