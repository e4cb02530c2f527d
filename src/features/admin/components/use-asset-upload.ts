import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { assetsKeys, uploadAsset } from '../api/partner-assets';
import { assetErrorMessage, storageStatusOf, type AssetLimits } from '../model/partner-assets';

/** One upload at a time, with its progress (0–1) and the refusal in words. */
export function useAssetUpload(limits: AssetLimits) {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  const upload = async (path: string, file: File, name: string, replace: boolean) => {
    setError(null);
    setProgress(0);
    try {
      await uploadAsset({ path, file, replace, onProgress: setProgress });
      return true;
    } catch (caught) {
      setError(assetErrorMessage(storageStatusOf(caught), 'upload', name, limits));
      return false;
    } finally {
      setProgress(null);
      await queryClient.invalidateQueries({ queryKey: assetsKeys.all });
    }
  };

  return { upload, progress, error, setError };
}
