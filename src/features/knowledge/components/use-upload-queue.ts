import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { isAbort, uploadDocument } from '../api/upload-document';
import { knowledgeKeys } from '../api/query-keys';
import {
  checkFile,
  describeKinds,
  formatSize,
  isRefused,
  type DocumentKind,
  type LibraryLimits,
} from '../model/document-rules';
import { contentProblem, readFirstBytes } from '../model/sniff-content';
import { documentErrorMessage, statusOf } from '../model/storage-error';

/**
 * The files a person chose, each checked, then uploaded one at a time (the
 * first gets the whole connection, so its bar moves steadily) with its own
 * progress, cancel and, when its name is taken, the choice to replace.
 */

export type UploadStatus =
  'checking' | 'waiting' | 'uploading' | 'done' | 'refused' | 'failed' | 'cancelled';

export interface UploadItem {
  id: string;
  /** The chosen file's own name. */
  fileName: string;
  /** The name it gets in the library (accents and odd signs tidied). */
  name: string;
  size: number;
  status: UploadStatus;
  loaded: number;
  message?: string;
  /** Its name is taken: offer to replace that document. */
  canReplace?: boolean;
}

type Action =
  | { type: 'add'; items: UploadItem[] }
  | { type: 'update'; id: string; changes: Partial<UploadItem> }
  | { type: 'remove'; id: string }
  | { type: 'clear-finished' };

function reducer(items: UploadItem[], action: Action): UploadItem[] {
  switch (action.type) {
    case 'add':
      return [...items, ...action.items];
    case 'update':
      return items.map((item) => (item.id === action.id ? { ...item, ...action.changes } : item));
    case 'remove':
      return items.filter((item) => item.id !== action.id);
    case 'clear-finished':
      return items.filter((item) => ['checking', 'waiting', 'uploading'].includes(item.status));
  }
}

interface Pending {
  file: File;
  kind: DocumentKind;
  replace: boolean;
  controller?: AbortController;
}

let nextId = 0;

function takenChanges(name: string): Partial<UploadItem> {
  return {
    status: 'refused',
    canReplace: true,
    message: `A document named ${name} is already in the library. Replace it, or rename your file and choose it again.`,
  };
}

export function useUploadQueue({
  workspaceId,
  limits,
  takenNames,
}: {
  workspaceId: string;
  limits: LibraryLimits;
  /** Names already in the library (from the list on screen). */
  takenNames: readonly string[];
}) {
  const queryClient = useQueryClient();
  const [items, dispatch] = useReducer(reducer, []);
  const pending = useRef(new Map<string, Pending>());
  const itemsRef = useRef(items);
  useEffect(() => {
    itemsRef.current = items;
  }, [items]);
  const wording = { size: formatSize(limits.maxBytes ?? 0), kinds: describeKinds(limits) };

  const update = (id: string, changes: Partial<UploadItem>) =>
    dispatch({ type: 'update', id, changes });

  const addFiles = useCallback(
    (files: readonly File[]) => {
      const queuedNames = new Set(
        itemsRef.current
          .filter((item) => ['checking', 'waiting', 'uploading'].includes(item.status))
          .map((item) => item.name),
      );
      const added: UploadItem[] = [];
      for (const file of files) {
        nextId += 1;
        const id = `upload-${nextId}`;
        const checked = checkFile(file, limits);
        const base = { id, fileName: file.name, size: file.size, loaded: 0 };
        if (isRefused(checked)) {
          added.push({ ...base, name: file.name, status: 'refused', message: checked.reason });
          continue;
        }
        if (queuedNames.has(checked.name)) {
          added.push({
            ...base,
            name: checked.name,
            status: 'refused',
            message: `${checked.name} is already being uploaded.`,
          });
          continue;
        }
        queuedNames.add(checked.name);
        added.push({ ...base, name: checked.name, status: 'checking' });
        pending.current.set(id, { file, kind: checked.kind, replace: false });
        const isTaken = takenNames.includes(checked.name);
        void readFirstBytes(file)
          .then((bytes) => contentProblem(checked.name, checked.kind, bytes))
          .catch(() => `${file.name} could not be read. Check that the file is still there.`)
          .then((problem) => {
            if (problem !== null) update(id, { status: 'refused', message: problem });
            else if (isTaken) update(id, takenChanges(checked.name));
            else update(id, { status: 'waiting' });
          });
      }
      dispatch({ type: 'add', items: added });
    },
    [limits, takenNames],
  );

  // One upload at a time, in the order chosen.
  const current = items.find((item) => item.status === 'uploading');
  const next = current ? undefined : items.find((item) => item.status === 'waiting');
  useEffect(() => {
    if (!next) return;
    const entry = pending.current.get(next.id);
    if (!entry) return;
    const controller = new AbortController();
    entry.controller = controller;
    update(next.id, { status: 'uploading', loaded: 0, message: undefined });
    uploadDocument({
      workspaceId,
      file: entry.file,
      name: next.name,
      kind: entry.kind,
      replace: entry.replace,
      signal: controller.signal,
      onProgress: ({ loaded }) => update(next.id, { loaded }),
    })
      .then(() => {
        pending.current.delete(next.id);
        update(next.id, { status: 'done', loaded: next.size });
      })
      .catch((error: unknown) => {
        if (isAbort(error)) {
          update(next.id, { status: 'cancelled', message: `${next.name} was not uploaded.` });
          return;
        }
        update(
          next.id,
          statusOf(error) === '409'
            ? takenChanges(next.name)
            : {
                status: 'failed',
                message: documentErrorMessage(error, 'upload', next.name, wording),
              },
        );
      })
      .finally(() =>
        queryClient.invalidateQueries({ queryKey: knowledgeKeys.documents(workspaceId) }),
      );
    // Started once per item: `next` changes only when another item's turn comes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [next?.id]);

  const cancel = (id: string) => {
    const entry = pending.current.get(id);
    entry?.controller?.abort();
    const item = itemsRef.current.find((candidate) => candidate.id === id);
    if (item && item.status !== 'uploading') {
      update(id, { status: 'cancelled', message: `${item.name} was not uploaded.` });
    }
  };

  const retry = (id: string, options: { replace?: boolean } = {}) => {
    const entry = pending.current.get(id);
    if (!entry) return;
    entry.replace = options.replace ?? entry.replace;
    update(id, { status: 'waiting', canReplace: false, message: undefined, loaded: 0 });
  };

  const dismiss = (id: string) => {
    pending.current.delete(id);
    dispatch({ type: 'remove', id });
  };

  const clearFinished = () => {
    for (const item of itemsRef.current) {
      if (!['checking', 'waiting', 'uploading'].includes(item.status)) {
        pending.current.delete(item.id);
      }
    }
    dispatch({ type: 'clear-finished' });
  };

  return { items, addFiles, cancel, retry, dismiss, clearFinished };
}
