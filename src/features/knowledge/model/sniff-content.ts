import type { DocumentKind } from './document-rules';

/**
 * Whether a file's first bytes agree with the type its name claims. The
 * storage server keeps whatever type an upload declares (as Supabase does),
 * so this is where a renamed program or a UTF-16 export is caught, with a
 * sentence, before the agent is asked to read it.
 */

/** How much of a file is read to decide. */
export const SNIFF_BYTES = 64 * 1024;

const startsWith = (bytes: Uint8Array, signature: readonly number[]) =>
  signature.every((byte, index) => bytes[index] === byte);

const PDF_MARK = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-
const ZIP_MARK = [0x50, 0x4b, 0x03, 0x04]; // PK\3\4, a .docx is a zip
const OLE_MARK = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]; // the older .doc

function findPdfMark(bytes: Uint8Array): boolean {
  // The header may follow a little junk: readers look within the first 1,024 bytes.
  const end = Math.min(bytes.length - PDF_MARK.length, 1024);
  for (let at = 0; at <= end; at += 1) {
    if (startsWith(bytes.subarray(at), PDF_MARK)) return true;
  }
  return false;
}

/** Null when the bytes fit, else why not in a sentence naming the file. */
export function contentProblem(
  name: string,
  kind: DocumentKind,
  firstBytes: Uint8Array,
): string | null {
  switch (kind.label) {
    case 'PDF':
      return findPdfMark(firstBytes)
        ? null
        : `${name} is not a PDF inside, whatever its name says. Export it as a PDF again and upload that file.`;
    case 'Word':
      if (startsWith(firstBytes, ZIP_MARK)) return null;
      return startsWith(firstBytes, OLE_MARK)
        ? `${name} is an older Word document (.doc). Open it in Word, save it as .docx, then upload it.`
        : `${name} is not a Word (.docx) document inside. Save it from Word as .docx and upload that file.`;
    default: {
      const text = `${name} does not look like plain text. Save it as UTF-8 text, then upload it again.`;
      if (firstBytes.includes(0)) return text;
      try {
        // stream: a character cut in two at the end of the sample is not an error.
        new TextDecoder('utf-8', { fatal: true }).decode(firstBytes, { stream: true });
        return null;
      } catch {
        return text;
      }
    }
  }
}

/** The first bytes of a file (all of a small one). */
export async function readFirstBytes(file: Blob): Promise<Uint8Array> {
  return new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
}
