/** How much of a file has been sent, as a bar and in words for screen readers. */
export function UploadProgress({ name, fraction }: { name: string; fraction: number }) {
  const percent = Math.round(fraction * 100);
  return (
    <div className="grid gap-1.5">
      <p className="text-sm text-ink-700">
        Uploading {name}… {percent}%
      </p>
      <div
        role="progressbar"
        aria-label={`Uploading ${name}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 w-full overflow-hidden rounded-full bg-sand-100"
      >
        <div className="h-full bg-azure-700 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
