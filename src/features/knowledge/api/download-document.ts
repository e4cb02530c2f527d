import { getSupabase } from '@/lib/supabase';
import { KNOWLEDGE_BUCKET } from '../model/document-rules';
import type { KnowledgeDocument } from './list-documents';

/** Long enough to start the download, short enough that a copied link is soon useless. */
const DOWNLOAD_URL_SECONDS = 60;

/**
 * Downloads a document under its own name: a short-lived signed URL that the
 * server answers with `Content-Disposition: attachment`, so the bytes stream
 * to disk instead of through the page's memory.
 */
export async function downloadDocument(document: KnowledgeDocument): Promise<void> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.storage
    .from(KNOWLEDGE_BUCKET)
    .createSignedUrl(document.path, DOWNLOAD_URL_SECONDS, { download: document.name });
  if (error) throw error;
  const link = window.document.createElement('a');
  link.href = data.signedUrl;
  link.download = document.name;
  link.rel = 'noopener';
  window.document.body.append(link);
  link.click();
  link.remove();
}
