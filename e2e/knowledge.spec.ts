import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectDashboard, signIn } from './auth-pages';
import { adminClient, createUser, uniqueEmail, type CreatedUser } from './auth-support';
import { collectErrors, followPortalLink } from './support';

/**
 * The knowledge library (issue 16) end to end at a desktop and a phone size:
 * a workspace owner sees the bucket's rules, has a wrong type, a file over
 * the limit and a program named .pdf refused before anything is sent, uploads
 * documents with a progress bar (the connection slowed so the bar is seen),
 * cancels one, downloads one (same bytes), renames (a taken name refused) and
 * deletes; a member of the workspace sees the list read-only and downloads.
 */

const sizes = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

const LIMIT = 25 * 1024 * 1024;
const RULES = 'PDF, Word (.docx), text or Markdown, up to 25 MB';

/** A PDF-looking file: the mark the browser checks, then random bytes. */
function pdfBytes(size: number): Buffer {
  return Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(size - 9)]);
}

async function ownerOfANewWorkspace(label: string): Promise<CreatedUser & { workspaceId: string }> {
  const user = await createUser({
    email: uniqueEmail(`knowledge-${label}`),
    fullName: 'Olive Owner',
    company: `Olive Clinics ${label}`,
  });
  return { ...user, workspaceId: await workspaceOf(user.id) };
}

async function workspaceOf(userId: string): Promise<string> {
  const admin = await adminClient();
  const { data, error } = await admin
    .from('workspace_members')
    .select('workspace_id')
    .eq('user_id', userId)
    .single();
  if (error) throw error;
  return (data as { workspace_id: string }).workspace_id;
}

/** A user who is only a member of `workspaceId` (their own new workspace removed). */
async function memberOf(workspaceId: string, label: string): Promise<CreatedUser> {
  const user = await createUser({
    email: uniqueEmail(`knowledge-member-${label}`),
    fullName: 'Mo Member',
    company: `Mo ${label}`,
  });
  const admin = await adminClient();
  const own = await workspaceOf(user.id);
  expect((await admin.from('workspaces').delete().eq('id', own)).error).toBeNull();
  const added = await admin
    .from('workspace_members')
    .insert({ workspace_id: workspaceId, user_id: user.id, role: 'member' });
  expect(added.error).toBeNull();
  return user;
}

async function openKnowledge(page: Page, user: CreatedUser): Promise<void> {
  await signIn(page, user);
  await expectDashboard(page);
  await followPortalLink(page, 'Knowledge');
  await expect(page.getByRole('heading', { level: 1, name: 'Knowledge' })).toBeVisible();
}

function documentsList(page: Page): Locator {
  return page.getByRole('list', { name: 'Documents' });
}

function uploadItem(page: Page, name: string): Locator {
  return page.getByRole('list', { name: 'Uploads' }).getByRole('listitem', { name });
}

/** Slows this page's uploads so a progress bar stays on screen for a few seconds. */
async function slowUploads(page: Page, bytesPerSecond: number): Promise<() => Promise<void>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
  return async () => {
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
  };
}

for (const size of sizes) {
  test.describe(`knowledge library at ${size.width}×${size.height}`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });
    test.setTimeout(90_000);

    test('an owner is refused wrong files before upload, uploads with progress, cancels, downloads, renames and deletes', async ({
      page,
    }) => {
      const errors = collectErrors(page);
      const owner = await ownerOfANewWorkspace(size.name);
      await openKnowledge(page, owner);
      const main = page.getByRole('main');
      await expect(main.getByText(RULES)).toBeVisible();
      await expect(main.getByRole('heading', { name: 'No documents yet' })).toBeVisible();

      // Refused in the browser: nothing is sent.
      const uploadsSent: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && request.url().includes('/storage/v1/object/knowledge/'))
          uploadsSent.push(request.url());
      });
      const input = page.getByLabel('Choose documents to upload');
      await input.setInputFiles([
        { name: 'contacts.csv', mimeType: 'text/csv', buffer: Buffer.from('a,b\n1,2\n') },
        { name: 'scan.pdf', mimeType: 'application/pdf', buffer: pdfBytes(LIMIT + 1) },
        {
          name: 'setup.pdf',
          mimeType: 'application/pdf',
          buffer: Buffer.from('MZ\x90\x00 This program cannot be run in DOS mode'),
        },
      ]);
      await expect(uploadItem(page, 'contacts.csv')).toContainText(
        'contacts.csv is not a document the library accepts. Upload PDF, Word (.docx), text or Markdown files.',
      );
      await expect(uploadItem(page, 'scan.pdf')).toContainText(
        'scan.pdf is just over the 25 MB limit.',
      );
      await expect(uploadItem(page, 'setup.pdf')).toContainText(
        'setup.pdf is not a PDF inside, whatever its name says.',
      );
      expect(uploadsSent).toEqual([]);
      await main.getByRole('button', { name: 'Clear finished' }).click();
      await expect(page.getByRole('list', { name: 'Uploads' })).toHaveCount(0);

      // Three documents, one at a time, with a bar; the last is cancelled while it waits or runs.
      const handbook = pdfBytes(3 * 1024 * 1024);
      const restore = await slowUploads(page, 1024 * 1024);
      await input.setInputFiles([
        { name: 'Handbook.pdf', mimeType: 'application/pdf', buffer: handbook },
        // Browsers give .md no type: the app sets it from the extension.
        { name: 'faq.md', mimeType: '', buffer: Buffer.from('# FAQ\n\nOpen 9–5.\n') },
        { name: 'pricing.md', mimeType: '', buffer: Buffer.from('# Pricing\n') },
        { name: 'draft.pdf', mimeType: 'application/pdf', buffer: pdfBytes(2 * 1024 * 1024) },
      ]);
      const bar = page.getByRole('progressbar', { name: 'Uploading Handbook.pdf' });
      await expect(bar).toBeVisible();
      await expect
        .poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 10_000 })
        .toBeGreaterThan(0);
      expect(Number(await bar.getAttribute('aria-valuenow'))).toBeLessThan(100);
      await uploadItem(page, 'draft.pdf')
        .getByRole('button', { name: /^Cancel/ })
        .click();
      await expect(uploadItem(page, 'draft.pdf')).toContainText('Cancelled.');
      await expect(uploadItem(page, 'Handbook.pdf')).toContainText('Uploaded', { timeout: 20_000 });
      await expect(uploadItem(page, 'pricing.md')).toContainText('Uploaded', { timeout: 10_000 });
      await restore();
      await main.getByRole('button', { name: 'Clear finished' }).click();

      const list = documentsList(page);
      await expect(list.getByRole('listitem')).toHaveCount(3);
      await expect(list.getByRole('listitem').first()).toContainText('pricing.md');
      await expect(list.getByRole('listitem').filter({ hasText: 'Handbook.pdf' })).toContainText(
        /PDF · 3 MB · Updated /,
      );
      await expect(list.getByRole('listitem').filter({ hasText: 'faq.md' })).toContainText(
        'Markdown',
      );
      await expect(list).not.toContainText('draft.pdf');

      // Download: the same bytes, under its name.
      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download Handbook.pdf' }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toBe('Handbook.pdf');
      expect((await readFile((await download.path())!)).equals(handbook)).toBe(true);

      // Rename: a taken name is refused with a sentence; a free one is taken.
      await page.getByRole('button', { name: 'Rename pricing.md' }).click();
      const dialog = page.getByRole('dialog', { name: 'Rename document' });
      await dialog.getByLabel('New name').fill('faq');
      await dialog.getByRole('button', { name: 'Rename' }).click();
      await expect(dialog).toContainText(
        'A document named faq.md is already in the library. Choose another name.',
      );
      await dialog.getByLabel('New name').fill('Prices café');
      await dialog.getByRole('button', { name: 'Rename' }).click();
      await expect(dialog).toContainText('“é” cannot be used in a document name.');
      await dialog.getByLabel('New name').fill('Prices 2026');
      await dialog.getByRole('button', { name: 'Rename' }).click();
      await expect(dialog).toHaveCount(0);
      await expect(list.getByRole('listitem').filter({ hasText: 'Prices 2026.md' })).toBeVisible();
      await expect(list).not.toContainText('pricing.md');

      // Uploading a name already there offers to replace it.
      await input.setInputFiles([
        { name: 'faq.md', mimeType: '', buffer: Buffer.from('# FAQ\n\nOpen 8–6.\n') },
      ]);
      await expect(uploadItem(page, 'faq.md')).toContainText(
        'A document named faq.md is already in the library.',
      );
      await uploadItem(page, 'faq.md').getByRole('button', { name: 'Replace' }).click();
      await expect(uploadItem(page, 'faq.md')).toContainText('Uploaded');

      // Delete, after confirming.
      await page.getByRole('button', { name: 'Delete Handbook.pdf' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete Handbook.pdf?' });
      await confirm.getByRole('button', { name: 'Delete document' }).click();
      await expect(confirm).toHaveCount(0);
      await expect(list.getByRole('listitem')).toHaveCount(2);
      await expect(list).not.toContainText('Handbook.pdf');

      // What the page shows is what the bucket holds.
      const admin = await adminClient();
      const stored = await admin.storage.from('knowledge').list(owner.workspaceId);
      expect(stored.data?.map((entry) => entry.name).sort()).toEqual(['Prices 2026.md', 'faq.md']);
      const faq = await admin.storage.from('knowledge').download(`${owner.workspaceId}/faq.md`);
      expect(await faq.data?.text()).toBe('# FAQ\n\nOpen 8–6.\n');
      expect(errors).toEqual([]);
    });

    test('a member reads the list and downloads, with no way to change it', async ({ page }) => {
      const owner = await ownerOfANewWorkspace(`${size.name}-shared`);
      const admin = await adminClient();
      const uploaded = await admin.storage
        .from('knowledge')
        .upload(`${owner.workspaceId}/Returns policy.txt`, 'Refunds within 30 days.', {
          contentType: 'text/plain',
        });
      expect(uploaded.error).toBeNull();
      const member = await memberOf(owner.workspaceId, size.name);

      await openKnowledge(page, member);
      const main = page.getByRole('main');
      await expect(main.getByText('You can read and download these documents')).toBeVisible();
      await expect(
        main.getByText(/Only the owners and admins of .* can add, rename or delete/),
      ).toBeVisible();
      const row = documentsList(page)
        .getByRole('listitem')
        .filter({ hasText: 'Returns policy.txt' });
      await expect(row).toContainText('Text · 23 bytes');
      await expect(page.getByLabel('Choose documents to upload')).toHaveCount(0);
      await expect(main.getByRole('button', { name: /^(Rename|Delete) / })).toHaveCount(0);

      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download Returns policy.txt' }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toBe('Returns policy.txt');
      expect(await readFile((await download.path())!, 'utf8')).toBe('Refunds within 30 days.');
    });
  });
}
