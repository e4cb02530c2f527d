import { createReadStream } from 'node:fs';
import { copyFile, mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  BLOB_KEY_PATTERN,
  BlobNotFoundError,
  assertBlobKey,
  type BlobStore,
  type ByteRange,
  type StagedFile,
} from './blob-store';

/**
 * Blobs as files under `<dir>/blobs/<first two characters>/<key>`. Staged
 * uploads live in `<dir>/tmp` on the same filesystem, so `put` is a rename:
 * atomic, and never a second copy of the bytes. The file and its folder are
 * fsynced before the rename is trusted, so a blob a row points to survives a
 * power cut.
 */
export class FsBlobStore implements BlobStore {
  readonly kind = 'fs';
  readonly blobDir: string;
  readonly tmpDir: string;

  constructor(dir: string) {
    this.blobDir = path.join(dir, 'blobs');
    this.tmpDir = path.join(dir, 'tmp');
  }

  /** Creates the folders (the storage service clears the staging folder at start). */
  async open(): Promise<this> {
    await mkdir(this.blobDir, { recursive: true, mode: 0o700 });
    await mkdir(this.tmpDir, { recursive: true, mode: 0o700 });
    return this;
  }

  private pathOf(key: string): string {
    assertBlobKey(key);
    return path.join(this.blobDir, key.slice(0, 2), key);
  }

  async put(key: string, file: StagedFile): Promise<void> {
    try {
      const target = this.pathOf(key);
      await syncFile(file.path);
      await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      await rename(file.path, target);
      await syncFolder(path.dirname(target));
    } catch (error) {
      await rm(file.path, { force: true });
      throw error;
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.pathOf(key);
    // Open first, so a missing blob rejects here rather than mid-response.
    const handle = await open(file, 'r').catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'ENOENT' ? new BlobNotFoundError(key) : error;
    });
    return createReadStream('', {
      fd: handle,
      autoClose: true,
      highWaterMark: 256 * 1024,
      ...(range ? { start: range.start, end: range.end } : {}),
    });
  }

  async copy(fromKey: string, toKey: string): Promise<void> {
    const source = this.pathOf(fromKey);
    assertBlobKey(toKey);
    const staged = path.join(this.tmpDir, `copy-${toKey}`);
    try {
      await copyFile(source, staged);
    } catch (error) {
      await rm(staged, { force: true });
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobNotFoundError(fromKey);
      throw error;
    }
    const { size } = await stat(staged);
    await this.put(toKey, { path: staged, size });
  }

  async delete(keys: readonly string[]): Promise<void> {
    // Every key is checked before any file goes: a refused batch deletes nothing.
    const files = keys.map((key) => this.pathOf(key));
    await Promise.all(
      files.map((file) =>
        unlink(file).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
        }),
      ),
    );
  }

  async exists(key: string): Promise<boolean> {
    const file = this.pathOf(key);
    try {
      await stat(file);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  async *list(): AsyncIterable<{ key: string; modifiedAt: Date }> {
    for (const shard of await readdir(this.blobDir).catch(() => [] as string[])) {
      const folder = path.join(this.blobDir, shard);
      for (const name of await readdir(folder).catch(() => [] as string[])) {
        const info = await stat(path.join(folder, name)).catch(() => undefined);
        if (info?.isFile()) yield { key: name, modifiedAt: info.mtime };
      }
    }
  }

  /** The blob folder is the store's alone: every well-formed key in it is a blob it wrote. */
  async ownKeys(keys: readonly string[]): Promise<string[]> {
    return keys.filter((key) => BLOB_KEY_PATTERN.test(key));
  }
}

async function syncFile(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } catch {
    // Some filesystems refuse fsync on a folder; the rename is still atomic.
  } finally {
    await handle.close();
  }
}
